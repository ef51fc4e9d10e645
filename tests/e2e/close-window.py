#!/usr/bin/python3
"""Closes a program's windows the way a window manager does when the person clicks the close
button: a WM_DELETE_WINDOW client message to each top-level window of process PID (by
_NET_WM_PID) that takes it. Under Xvfb there is no window manager, so the e2e tests send it
themselves. Prints how many windows were asked; exits 1 if none was found.

Usage: close-window.py PID   (DISPLAY names the X server)
"""

import sys

from Xlib import X, display
from Xlib.protocol import event


def windows_of(dpy, pid):
    net_wm_pid = dpy.intern_atom("_NET_WM_PID")
    found = []
    stack = [dpy.screen().root]
    while stack:
        window = stack.pop()
        try:
            prop = window.get_full_property(net_wm_pid, X.AnyPropertyType)
            children = window.query_tree().children
        except Exception:  # a window that went away meanwhile
            continue
        if prop is not None and prop.value and prop.value[0] == pid:
            found.append(window)
        stack.extend(children)
    return found


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    pid = int(sys.argv[1])
    dpy = display.Display()
    protocols = dpy.intern_atom("WM_PROTOCOLS")
    delete = dpy.intern_atom("WM_DELETE_WINDOW")
    asked = 0
    for window in windows_of(dpy, pid):
        try:
            takes = window.get_wm_protocols() or []
            mapped = window.get_attributes().map_state == X.IsViewable
        except Exception:
            continue
        if delete not in takes or not mapped:
            continue
        message = event.ClientMessage(
            window=window,
            client_type=protocols,
            data=(32, [delete, X.CurrentTime, 0, 0, 0]),
        )
        window.send_event(message, event_mask=X.NoEventMask)
        asked += 1
    dpy.flush()
    print(asked)
    return 0 if asked else 1


if __name__ == "__main__":
    sys.exit(main())
