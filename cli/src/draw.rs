//! `hlayout draw`: pictures of a layout, a composed (swizzled) layout, a
//! movement-op chain, or a thread/value access on a shared-memory tile, as
//! SVG (the default) or TikZ. The library draws ([`hlayout::draw`]); this
//! module only reads the arguments.
//!
//! ```
//! use hlayout_cli::draw::{draw, Request};
//! let req = Request { layout: Some("(4,8):(8,1)"), tv: Some("(8,4):(4,1)"), ..Request::default() };
//! let svg = draw(&req).unwrap();
//! assert!(svg.starts_with("<svg") && svg.contains(">T7V3</text>"));
//! ```

use hlayout::algebra::ComposedLayout;
use hlayout::draw::{self, Banks, TvPicture};
use hlayout::{Layout, Limits};
use serde_json::Value;

use crate::fields::Fields;

/// What to draw, as `hlayout draw`'s arguments give it.
#[derive(Clone, Debug, Default)]
pub struct Request<'a> {
    /// Layout text, plain (`SHAPE:STRIDE`) or composed (`Sw<B,M,S> o O o L`).
    pub layout: Option<&'a str>,
    /// A chain request's `{"shape": [..], "ops": [..]}`, instead of a layout.
    pub chain: Option<&'a str>,
    /// The access `A` (plain layout text, threads × values) read on the layout.
    pub tv: Option<&'a str>,
    /// Show the banks of this warp with elements of this many bytes.
    pub banks: Option<Banks>,
    /// TikZ instead of SVG.
    pub tikz: bool,
}

/// A failed request: the message, and the layout text and byte position
/// when text did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong.
    pub message: String,
    /// The text that did not parse and where, for a caret under it.
    pub at: Option<(String, usize)>,
}

impl Failure {
    fn of(text: &str, e: hlayout::Error) -> Failure {
        let at = match e {
            hlayout::Error::Parse { pos, .. } => Some((text.to_string(), pos)),
            _ => None,
        };
        Failure {
            message: format!("{text}: {e}"),
            at,
        }
    }

    fn msg(message: String) -> Failure {
        Failure { message, at: None }
    }
}

fn parse_composed(text: &str) -> Result<Option<ComposedLayout>, Failure> {
    if !text.trim_start().starts_with("Sw<") {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|e| Failure::of(text, e))
}

fn parse_layout(text: &str) -> Result<Layout, Failure> {
    text.parse().map_err(|e| Failure::of(text, e))
}

/// The picture `req` asks for, SVG or TikZ text.
///
/// # Errors
/// Bad layout, access or chain text, an access that reads outside the
/// layout's domain, a picture past the drawing limits, as a [`Failure`].
///
/// ```
/// use hlayout_cli::draw::{draw, Request};
/// let req = Request { layout: Some("Sw<1,0,1> o 0 o (2,2):(2,1)"), tikz: true, ..Request::default() };
/// assert!(draw(&req).unwrap().contains("at (1,0) {3}"));
/// let bad = Request { layout: Some("(2,3:(1,2)"), ..Request::default() };
/// assert_eq!(draw(&bad).unwrap_err().at, Some(("(2,3:(1,2)".to_string(), 4)));
/// ```
pub fn draw(req: &Request) -> Result<String, Failure> {
    if let Some(json) = req.chain {
        let t = chain(json).map_err(Failure::msg)?;
        return Ok(if req.tikz {
            draw::stack_latex(&t)
        } else {
            draw::stack_svg(&t)
        });
    }
    let text = req
        .layout
        .ok_or_else(|| Failure::msg("expected a LAYOUT or --chain JSON".into()))?;
    let composed = parse_composed(text)?;
    if let Some(access) = req.tv {
        let a = parse_layout(access)?;
        let p = match &composed {
            Some(c) => TvPicture::of_composed(c, &a, req.banks),
            None => TvPicture::of_layout(&parse_layout(text)?, &a, req.banks),
        };
        let p = p.map_err(|e| Failure::msg(format!("--tv {access}: {e}")))?;
        return Ok(if req.tikz {
            draw::tv_latex(&p)
        } else {
            draw::tv_svg(&p)
        });
    }
    Ok(match (composed, req.tikz) {
        (Some(c), false) => draw::composed_svg(&c),
        (Some(c), true) => draw::composed_latex(&c),
        (None, tikz) => {
            let l = parse_layout(text)?;
            if tikz {
                draw::layout_latex(&l)
            } else {
                draw::layout_svg(&l)
            }
        }
    })
}

/// The stack of a chain request's `{"shape": [..], "ops": [..]}`.
fn chain(json: &str) -> Result<hlayout::ViewStack, String> {
    let req: Value = crate::fields::parse_json(json).map_err(|e| format!("--chain: {e}"))?;
    let obj = req.as_object().ok_or("--chain: expected a JSON object")?;
    let f = Fields::new(obj, "chain", &["shape", "ops"]).map_err(|e| format!("--chain: {e}"))?;
    crate::batch::chain_stack(&f, &Limits::default()).map_err(|e| format!("--chain: {e}"))
}
