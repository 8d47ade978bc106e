//! Komi as the user wrote it, exactly, and the margins it gives.
//!
//! A komi such as `9.0000001` has no exact binary value: a margin worked
//! out in floating point (`9 - 9.0000001`) comes out as
//! `-0.0000001000000006...`. So the engine keeps the komi as an exact
//! decimal (`Komi`) and works out every margin it shows as the exact
//! decimal difference of the integer area margin and that komi:
//! `W+0.0000001`. The values are still read in floating point, at a
//! stand-in komi (`Komi::proxy`) that lies on the same side of every
//! integer margin a board can have as the true komi, and is exact in
//! binary (an integer, or an integer and a half): every comparison, and so
//! every move chosen, is the one the exact komi gives, and the integer
//! margin behind each result is recovered from it exactly.

use std::cmp::Ordering;

/// The most digits a komi may have, in its integer and fraction parts
/// together once written out without an exponent.
const MAX_DIGITS: usize = 1000;

/// Past this size a komi decides every game of every board the same way;
/// its stand-in is this plus a half.
const PROXY_BOUND: i64 = 1000;

/// An exact decimal: `±digits / 10^scale`, the digits most significant
/// first, without leading zeros (none for zero) and without trailing zeros
/// in the fraction.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    scale: usize,
}

impl Decimal {
    fn zero() -> Decimal {
        Decimal {
            negative: false,
            digits: Vec::new(),
            scale: 0,
        }
    }

    fn from_integer(value: i64) -> Decimal {
        Decimal {
            negative: value < 0,
            digits: value
                .unsigned_abs()
                .to_string()
                .bytes()
                .map(|b| b - b'0')
                .collect(),
            scale: 0,
        }
        .normalized()
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Strips leading zeros and the fraction's trailing zeros; zero is
    /// never negative.
    fn normalized(mut self) -> Decimal {
        while self.scale > 0 && self.digits.last() == Some(&0) {
            self.digits.pop();
            self.scale -= 1;
        }
        let leading = self.digits.iter().take_while(|&&d| d == 0).count();
        self.digits.drain(..leading);
        if self.digits.is_empty() {
            self.negative = false;
            self.scale = 0;
        }
        self
    }

    fn negated(&self) -> Decimal {
        Decimal {
            negative: !self.negative && !self.is_zero(),
            ..self.clone()
        }
    }

    /// The digits at `scale` fraction digits (`scale >= self.scale`), as
    /// many as `length` with leading zeros.
    fn aligned(&self, scale: usize, length: usize) -> Vec<u8> {
        let mut digits = self.digits.clone();
        digits.resize(digits.len() + scale - self.scale, 0);
        let mut out = vec![0; length - digits.len()];
        out.extend(digits);
        out
    }

    fn sum(&self, other: &Decimal) -> Decimal {
        let scale = self.scale.max(other.scale);
        let length = 1
            + (self.digits.len() + scale - self.scale)
                .max(other.digits.len() + scale - other.scale);
        let (a, b) = (self.aligned(scale, length), other.aligned(scale, length));
        let (negative, digits) = if self.negative == other.negative {
            let mut out = vec![0; length];
            let mut carry = 0;
            for i in (0..length).rev() {
                let total = a[i] + b[i] + carry;
                out[i] = total % 10;
                carry = total / 10;
            }
            (self.negative, out)
        } else {
            // The larger magnitude less the smaller, with its sign.
            let (large, small, negative) = match a.cmp(&b) {
                Ordering::Less => (&b, &a, other.negative),
                _ => (&a, &b, self.negative),
            };
            let mut out = vec![0; length];
            let mut borrow = 0;
            for i in (0..length).rev() {
                let (x, y) = (large[i] as i8, small[i] as i8 + borrow);
                if x >= y {
                    out[i] = (x - y) as u8;
                    borrow = 0;
                } else {
                    out[i] = (x + 10 - y) as u8;
                    borrow = 1;
                }
            }
            (negative, out)
        };
        Decimal {
            negative,
            digits,
            scale,
        }
        .normalized()
    }

    /// The integer part (towards zero), if it is small.
    fn integer_part(&self) -> Option<i64> {
        let integer = &self.digits[..self.digits.len().saturating_sub(self.scale)];
        if integer.len() > 15 {
            return None;
        }
        let magnitude = integer.iter().fold(0i64, |n, &d| 10 * n + d as i64);
        Some(if self.negative { -magnitude } else { magnitude })
    }

    fn is_integer(&self) -> bool {
        self.scale == 0
    }

    /// Reads `[+-]digits[.digits][e[+-]digits]` (digits on at least one
    /// side of the point), as a finite GTP float is written.
    fn parse(text: &str) -> Option<Decimal> {
        let bytes = text.as_bytes();
        let mut at = 0;
        let negative = match bytes.first() {
            Some(b'-') => {
                at += 1;
                true
            }
            Some(b'+') => {
                at += 1;
                false
            }
            _ => false,
        };
        let mut digits = Vec::new();
        let mut fraction = 0usize;
        let mut seen_point = false;
        let mut any = false;
        while let Some(&b) = bytes.get(at) {
            match b {
                b'0'..=b'9' => {
                    digits.push(b - b'0');
                    any = true;
                    if seen_point {
                        fraction += 1;
                    }
                }
                b'.' if !seen_point => seen_point = true,
                _ => break,
            }
            at += 1;
        }
        if !any {
            return None;
        }
        let mut exponent: i64 = 0;
        if matches!(bytes.get(at), Some(b'e' | b'E')) {
            let rest = &text[at + 1..];
            let unsigned = rest.strip_prefix(['+', '-']).unwrap_or(rest);
            if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            exponent = rest.parse().ok()?;
            at = bytes.len();
        }
        if at != bytes.len() {
            return None;
        }
        let digits = {
            let leading = digits.iter().take_while(|&&d| d == 0).count();
            digits.split_off(leading.min(digits.len()))
        };
        // value = digits * 10^(exponent - fraction)
        let shift = exponent.checked_sub(fraction as i64)?;
        let decimal = if shift >= 0 {
            if (digits.len() as i64).saturating_add(shift) > MAX_DIGITS as i64 && !digits.is_empty()
            {
                return None;
            }
            let mut digits = digits;
            if !digits.is_empty() {
                digits.resize(digits.len() + shift as usize, 0);
            }
            Decimal {
                negative,
                digits,
                scale: 0,
            }
        } else {
            Decimal {
                negative,
                digits,
                scale: usize::try_from(shift.unsigned_abs()).ok()?,
            }
        };
        let decimal = decimal.normalized();
        (decimal.digits.len().max(decimal.scale) <= MAX_DIGITS).then_some(decimal)
    }

    /// The number as it reads, without an exponent: `-0.0000001`, `9`.
    fn text(&self) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let digits: String = self.digits.iter().map(|d| (b'0' + d) as char).collect();
        let body = if self.scale == 0 {
            digits
        } else if digits.len() > self.scale {
            let (integer, fraction) = digits.split_at(digits.len() - self.scale);
            format!("{integer}.{fraction}")
        } else {
            format!("0.{}{digits}", "0".repeat(self.scale - digits.len()))
        };
        if self.negative {
            format!("-{body}")
        } else {
            body
        }
    }
}

/// A komi, exactly as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Komi {
    exact: Decimal,
}

impl Default for Komi {
    fn default() -> Komi {
        Komi {
            exact: Decimal::zero(),
        }
    }
}

impl Komi {
    /// Reads a komi as GTP and SGF write it (`6.5`, `-2`, `1e-7`); `None`
    /// for anything else, `inf` and `nan` included, or a komi of more than
    /// `MAX_DIGITS` digits written out.
    pub fn parse(text: &str) -> Option<Komi> {
        Decimal::parse(text).map(|exact| Komi { exact })
    }

    /// The komi as it reads, without an exponent and without trailing
    /// zeros: `6.5`, `0.0000001`, `-2`.
    pub fn text(&self) -> String {
        self.exact.text()
    }

    /// The stand-in komi the values are read at: the komi itself when it
    /// is a whole number, else its whole part (towards minus infinity)
    /// plus a half; past `PROXY_BOUND` points, that bound and a half.
    pub fn proxy(&self) -> f64 {
        let bound = PROXY_BOUND as f64 + 0.5;
        let Some(whole) = self.exact.integer_part().filter(|w| w.abs() <= PROXY_BOUND) else {
            return if self.exact.negative { -bound } else { bound };
        };
        if self.exact.is_integer() {
            whole as f64
        } else if self.exact.negative {
            whole as f64 - 0.5
        } else {
            whole as f64 + 0.5
        }
    }

    /// The exact margin `points - komi` for an integer margin `points`.
    fn less(&self, points: i64) -> Decimal {
        Decimal::from_integer(points).sum(&self.exact.negated())
    }

    /// Black's exact margin, given Black's margin worked out at the
    /// stand-in komi (`black_margin(...)` of an outcome read at `proxy`):
    /// zero stays zero (a draw).
    fn black_margin(&self, proxy_margin: f64) -> Decimal {
        if proxy_margin == 0.0 {
            return Decimal::zero();
        }
        let points = (proxy_margin + self.proxy()).round() as i64;
        self.less(points)
    }

    /// `final_score` of Black's margin at the stand-in komi: `B+9`,
    /// `W+0.0000001`, `0`.
    pub fn score_text(&self, proxy_margin: f64) -> String {
        score(&self.black_margin(proxy_margin))
    }

    /// `final_score` of a board whose area margin for Black is `points`.
    pub fn area_score_text(&self, points: i64) -> String {
        score(&self.less(points))
    }

    /// The exact margin from the view of the mover, given Black's margin
    /// at the stand-in komi; positive when the mover wins.
    pub fn mover_margin_text(&self, proxy_margin: f64, mover_is_black: bool) -> String {
        let black = self.black_margin(proxy_margin);
        let mover = if mover_is_black {
            black
        } else {
            black.negated()
        };
        mover.text()
    }

    /// A label from the mover's view, given Black's margin at the stand-in
    /// komi: `+9` (wins by 9), `=0` (a draw), `-0.0000001`.
    pub fn label(&self, proxy_margin: f64, mover_is_black: bool) -> String {
        let black = self.black_margin(proxy_margin);
        let mover = if mover_is_black {
            black
        } else {
            black.negated()
        };
        if mover.is_zero() {
            "=0".to_string()
        } else if mover.negative {
            mover.text()
        } else {
            format!("+{}", mover.text())
        }
    }
}

/// `B+x`, `W+x` or `0` for Black's exact margin.
fn score(black: &Decimal) -> String {
    if black.is_zero() {
        "0".to_string()
    } else if black.negative {
        format!("W+{}", black.negated().text())
    } else {
        format!("B+{}", black.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn komi(text: &str) -> Komi {
        Komi::parse(text).unwrap_or_else(|| panic!("{text}"))
    }

    #[test]
    fn komi_reads_back_as_written() {
        for (text, read) in [
            ("6.5", "6.5"),
            ("-2", "-2"),
            ("+0.50", "0.5"),
            ("0", "0"),
            ("-0", "0"),
            ("007.25", "7.25"),
            ("9.0000001", "9.0000001"),
            ("1e-7", "0.0000001"),
            ("2.5E1", "25"),
            (".5", "0.5"),
            ("5.", "5"),
            ("1e300", &format!("1{}", "0".repeat(300))),
        ] {
            assert_eq!(komi(text).text(), read, "{text}");
        }
        for text in [
            "", "-", ".", "e5", "1e", "1e+", "inf", "nan", "6.5x", "1.2.3", "1e5000", "1e-5000",
            "--1",
        ] {
            assert_eq!(Komi::parse(text), None, "{text}");
        }
    }

    #[test]
    fn margins_are_exact_decimals() {
        let k = komi("9.0000001");
        assert_eq!(k.area_score_text(9), "W+0.0000001");
        assert_eq!(k.area_score_text(10), "B+0.9999999");
        assert_eq!(k.area_score_text(-9), "W+18.0000001");
        let k = komi("-2.3");
        assert_eq!(k.area_score_text(-2), "B+0.3");
        assert_eq!(k.area_score_text(-3), "W+0.7");
        assert_eq!(komi("6.5").area_score_text(9), "B+2.5");
        assert_eq!(komi("9").area_score_text(9), "0");
        assert_eq!(komi("0.1").area_score_text(0), "W+0.1");
        assert_eq!(komi("1e20").area_score_text(3), "W+99999999999999999997");
    }

    /// The stand-in komi lies on the komi's side of every integer, and the
    /// margins read at it give back the exact ones.
    #[test]
    fn the_stand_in_keeps_every_comparison() {
        for text in [
            "0",
            "9",
            "-9",
            "9.0000001",
            "8.9999999",
            "-2.3",
            "0.5",
            "-0.5",
            "1e-30",
            "-1e-30",
            "999.9",
            "1e20",
            "-1e20",
        ] {
            let k = komi(text);
            let proxy = k.proxy();
            for points in -40i64..=40 {
                let exact = k.less(points);
                let sign = if exact.is_zero() {
                    Ordering::Equal
                } else if exact.negative {
                    Ordering::Less
                } else {
                    Ordering::Greater
                };
                let at_proxy = points as f64 - proxy;
                assert_eq!(at_proxy.partial_cmp(&0.0), Some(sign), "{text} {points}");
                assert_eq!(k.black_margin(at_proxy), exact, "{text} {points}");
            }
        }
        let k = komi("9.0000001");
        assert_eq!(k.label(9.0 - k.proxy(), true), "-0.0000001");
        assert_eq!(k.label(9.0 - k.proxy(), false), "+0.0000001");
        assert_eq!(k.score_text(9.0 - k.proxy()), "W+0.0000001");
        assert_eq!(komi("9").label(0.0, true), "=0");
        assert_eq!(k.mover_margin_text(9.0 - k.proxy(), true), "-0.0000001");
    }
}
