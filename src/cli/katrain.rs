//! KaTrain's own SGF analysis property, `KT`, as KaTrain writes it
//! (`analysis_dumps` in its `katrain/core/game_node.py`) and reads it back
//! (`GameNode.load_analysis`): three values, each the standard base64 of
//! the gzip of, in order, the ownership and the policy packed as
//! little-endian half floats (an empty policy allowed) and the JSON object
//! `{"moves": {GTP move: moveInfo}, "root": rootInfo, "completed": true}`
//! of KataGo's analysis answer. The root carries `KTV[1.0]`, the format's
//! version.

use std::io::Write;

use serde_json::{json, Map, Value};

/// The version of KaTrain's analysis format this writes (`KTV`).
pub const FORMAT_VERSION: &str = "1.0";

/// The three values of `KT` for one position, from a KataGo analysis
/// answer (`moveInfos`, `rootInfo`, `ownership`, `policy`), each score in
/// it (`scoreLead`, `scoreMean`, `scoreSelfplay`) passed through `score`
/// first.
pub fn kt_values(answer: &Map<String, Value>, score: impl Fn(f64) -> f64) -> [String; 3] {
    let rescore = |info: &Value| {
        let mut info = info.clone();
        if let Some(object) = info.as_object_mut() {
            for key in ["scoreLead", "scoreMean", "scoreSelfplay"] {
                if let Some(value) = object.get(key).and_then(Value::as_f64) {
                    object.insert(key.into(), score(value).into());
                }
            }
        }
        info
    };
    let mut moves = Map::new();
    for info in answer
        .get("moveInfos")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(name) = info.get("move").and_then(Value::as_str) {
            moves.insert(name.to_string(), rescore(info));
        }
    }
    let root = answer.get("rootInfo").map(rescore).unwrap_or(Value::Null);
    let main = json!({"moves": moves, "root": root, "completed": true});
    let floats = |key: &str| -> Vec<u8> {
        answer
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_f64)
            .flat_map(|v| half_bits(v as f32).to_le_bytes())
            .collect()
    };
    [
        floats("ownership"),
        floats("policy"),
        main.to_string().into_bytes(),
    ]
    .map(|data| base64(&gzip(&data)))
}

/// `data` gzipped.
fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a vector cannot fail.
    encoder.write_all(data).expect("writes to memory");
    encoder.finish().expect("writes to memory")
}

/// The standard base64 of `data`, with padding.
fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let bytes = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let word = u32::from_be_bytes([0, bytes[0], bytes[1], bytes[2]]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(word >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The IEEE 754 half-precision bits of `value`, rounded to nearest, ties
/// to even, as Python's `struct.pack("e", ...)` rounds; too large a value
/// becomes an infinity (Python refuses it; ownership and policy lie in
/// [-1, 1]).
fn half_bits(value: f32) -> u16 {
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32;
    let mantissa = bits & 0x7f_ffff;
    if exponent == 0xff {
        return sign | 0x7c00 | if mantissa != 0 { 0x200 } else { 0 };
    }
    // The exponent of half precision, biased by 15.
    let half_exponent = exponent - 127 + 15;
    if half_exponent >= 0x1f {
        return sign | 0x7c00;
    }
    // The significand with its leading one, and how far it moves right.
    let (significand, shift) = if half_exponent <= 0 {
        if half_exponent < -10 {
            return sign;
        }
        (mantissa | 0x80_0000, (14 - half_exponent) as u32)
    } else {
        (mantissa, 13)
    };
    let kept = significand >> shift;
    let rest = significand & ((1 << shift) - 1);
    let half = 1 << (shift - 1);
    let rounded = kept + u32::from(rest > half || (rest == half && kept & 1 == 1));
    if half_exponent <= 0 {
        // A subnormal; rounding up may make it the smallest normal, which
        // the addition gives as it is.
        sign | rounded as u16
    } else {
        // A carry out of the mantissa raises the exponent, as it should.
        sign | (((half_exponent as u32) << 10) + rounded) as u16
    }
}

#[cfg(test)]
mod tests {
    use super::{base64, half_bits};

    #[test]
    fn half_floats_round_as_python_packs_them() {
        assert_eq!(half_bits(0.0), 0x0000);
        assert_eq!(half_bits(-0.0), 0x8000);
        assert_eq!(half_bits(1.0), 0x3c00);
        assert_eq!(half_bits(-1.0), 0xbc00);
        assert_eq!(half_bits(0.5), 0x3800);
        assert_eq!(half_bits(1.0 / 3.0), 0x3555);
        assert_eq!(half_bits(0.1), 0x2e66);
        assert_eq!(half_bits(65504.0), 0x7bff);
        assert_eq!(half_bits(1e6), 0x7c00);
        // The smallest subnormal, and a value that rounds up to it.
        assert_eq!(half_bits(2f32.powi(-24)), 0x0001);
        assert_eq!(half_bits(0.6 * 2f32.powi(-24)), 0x0001);
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: to even.
        assert_eq!(half_bits(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(half_bits(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
    }

    #[test]
    fn base64_is_the_standard_alphabet_with_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }
}
