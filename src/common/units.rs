//! Figures for people: counts and bytes in short human form (`1.2 M`,
//! `1.5 GiB`) and sizes such as `8G` or `512M` parsed into bytes.

/// `1234567` as `1.2 M`, for messages.
pub fn human(count: f64) -> String {
    let units = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, unit) in units {
        if count >= scale {
            return format!("{:.1} {unit}", count / scale);
        }
    }
    format!("{count:.0}")
}

/// Bytes as `1.5 GiB`.
pub fn human_bytes(bytes: f64) -> String {
    let units = [
        (1u64 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (scale, unit) in units {
        if bytes >= scale as f64 {
            return format!("{:.1} {unit}", bytes / scale as f64);
        }
    }
    format!("{bytes:.0} B")
}

/// Parses a size such as `8G`, `512M`, `1.5G` or `1000000` (bytes); the
/// units are binary (K, M, G, T, with an optional `i` and `B`).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let upper = trimmed.to_ascii_uppercase();
    let number_end = upper
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(upper.len());
    let (number, unit) = upper.split_at(number_end);
    let scale: u64 = match unit.trim_end_matches('B').trim_end_matches('I') {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(format!("{text:?} is not a size (for example 8G or 512M)")),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size (for example 8G or 512M)"))?;
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(format!("{text:?} is not a size (for example 8G or 512M)"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_binary_units() {
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        for bad in ["", "G", "8X", "-1G", "0", "1.2.3G"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
