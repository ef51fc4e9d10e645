//! Where an app view shows in the window: the window measures its panel (the part of the view
//! not hidden by scrolling, and whether a dialog of the window is over it) and the shell puts
//! the view's webview there. The numbers come from the window and are checked here: a view's
//! webview never leaves the window's area or takes a size no window has.

use serde::Deserialize;

/// The largest coordinate or size accepted, in CSS pixels.
const MAX_PIXELS: i32 = 100_000;

/// How the window wants a view shown, in its CSS pixels (the webview's logical pixels), rounded.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ViewPlacement {
    /// False hides the view's webview: its panel is hidden or scrolled out of sight, or a
    /// dialog or menu of the window is open (the webview would cover it).
    pub visible: bool,
    /// The part of the view that shows, in the window.
    pub x: i32,
    pub y: i32,
    pub width: i32,
    pub height: i32,
    /// The view's whole area, of which that part shows from (`offsetX`, `offsetY`).
    pub view_width: i32,
    pub view_height: i32,
    pub offset_x: i32,
    pub offset_y: i32,
}

impl ViewPlacement {
    /// The placement with every number finite, in range, and the shown part inside the view;
    /// `None` when nothing would show (then the view is hidden).
    pub fn checked(self) -> Option<Self> {
        let clamp = |v: i32| v.clamp(0, MAX_PIXELS);
        let view_width = clamp(self.view_width);
        let view_height = clamp(self.view_height);
        let offset_x = clamp(self.offset_x).min(view_width);
        let offset_y = clamp(self.offset_y).min(view_height);
        let placed = Self {
            visible: self.visible,
            x: clamp(self.x),
            y: clamp(self.y),
            width: clamp(self.width).min(view_width - offset_x),
            height: clamp(self.height).min(view_height - offset_y),
            view_width,
            view_height,
            offset_x,
            offset_y,
        };
        (placed.visible && placed.width >= 1 && placed.height >= 1).then_some(placed)
    }

    /// What the proxy page is told: the view's size, and where its shown part starts.
    pub fn proxy_layout(&self) -> serde_json::Value {
        serde_json::json!({
            "width": self.view_width,
            "height": self.view_height,
            "left": self.offset_x,
            "top": self.offset_y,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placement() -> ViewPlacement {
        ViewPlacement {
            visible: true,
            x: 10,
            y: 20,
            width: 300,
            height: 200,
            view_width: 300,
            view_height: 400,
            offset_x: 0,
            offset_y: 200,
        }
    }

    #[test]
    fn a_shown_part_stays_inside_its_view() {
        assert_eq!(placement().checked(), Some(placement()));
        let wide = ViewPlacement {
            width: 5000,
            height: 5000,
            ..placement()
        };
        let checked = wide.checked().expect("shown");
        assert_eq!(
            (checked.width, checked.height),
            (300, 200),
            "never more than is left of the view below its offset"
        );
    }

    #[test]
    fn hidden_or_empty_placements_hide_the_view() {
        for hidden in [
            ViewPlacement {
                visible: false,
                ..placement()
            },
            ViewPlacement {
                height: 0,
                ..placement()
            },
            ViewPlacement {
                width: -5,
                ..placement()
            },
            ViewPlacement {
                offset_y: 400,
                ..placement()
            },
        ] {
            assert_eq!(hidden.checked(), None, "{hidden:?}");
        }
        let far = ViewPlacement {
            x: -50,
            y: i32::MAX,
            ..placement()
        }
        .checked()
        .expect("shown");
        assert_eq!(
            (far.x, far.y),
            (0, MAX_PIXELS),
            "never outside the window's range"
        );
    }
}
