//! The two players. The tables never need colours (states are seen from the
//! side to move); the game record, GTP and the komi reading do.

// A probe-only build (no feature `solver`) leaves colours, which the engine and the analyses use unused.
#![cfg_attr(not(feature = "solver"), allow(dead_code, unused_imports))]

use std::fmt;

/// A player: Black moves first, White receives the komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// The first player.
    Black,
    /// The second player, who receives the komi.
    White,
}

impl Colour {
    /// The other player.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// Whether this is Black.
    pub fn is_black(self) -> bool {
        self == Colour::Black
    }

    /// Reads `b`, `black`, `w` or `white`, in any case.
    pub fn parse(text: &str) -> Option<Colour> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Colour::Black),
            "w" | "white" => Some(Colour::White),
            _ => None,
        }
    }

    /// One letter, as GTP variations and SGF write it: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Colour::Black => 'B',
            Colour::White => 'W',
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Black => "black",
            Colour::White => "white",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_in_any_case() {
        assert_eq!(Colour::parse("B"), Some(Colour::Black));
        assert_eq!(Colour::parse("white"), Some(Colour::White));
        assert_eq!(Colour::parse("WHITE"), Some(Colour::White));
        assert_eq!(Colour::parse("bl"), None);
        // Only ASCII letters change case: the Kelvin sign is not a K.
        assert_eq!(Colour::parse("blac\u{212A}"), None);
    }
}
