// The postMessage transport between the window and one sandbox proxy frame: the SDK's
// PostMessageTransport (which checks only `event.source`), pinned to the sandbox's exact origin
// both ways. A message from the frame's window with any other origin (the frame navigated away,
// or something else in it) is dropped before the bridge sees it, and what the host sends is
// delivered only to a document of that origin, never with "*".

import { PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

type Message = Parameters<PostMessageTransport["send"]>[0];

export class SandboxTransport extends PostMessageTransport {
  private readonly frameWindow: Window;
  private readonly origin: string;
  private readonly dropForeign: (event: MessageEvent) => void;

  constructor(frameWindow: Window, origin: string) {
    super(frameWindow, frameWindow);
    this.frameWindow = frameWindow;
    this.origin = origin;
    this.dropForeign = (event: MessageEvent) => {
      if (event.source === frameWindow && event.origin !== origin) {
        console.warn(`Gatehouse: dropped a message from the app frame with origin ${event.origin}`);
        event.stopImmediatePropagation();
      }
    };
  }

  override async start(): Promise<void> {
    // Registered first and in the capture phase, so it runs before the SDK's listener.
    window.addEventListener("message", this.dropForeign, true);
    await super.start();
  }

  override send(message: Message): Promise<void> {
    this.frameWindow.postMessage(message, this.origin);
    return Promise.resolve();
  }

  override async close(): Promise<void> {
    window.removeEventListener("message", this.dropForeign, true);
    await super.close();
  }
}
