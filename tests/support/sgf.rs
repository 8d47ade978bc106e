//! A plain reader of an SGF file's main line, for the tests to read what the
//! binary writes without the crate's own parser: the first variation at
//! every fork, each node a list of properties with their raw values.

/// One node: its properties in order, each with its values as written
/// (escapes removed).
#[derive(Debug)]
pub(crate) struct Node(pub Vec<(String, Vec<String>)>);

impl Node {
    /// The values of property `ident`, if the node has it.
    pub(crate) fn get(&self, ident: &str) -> Option<&[String]> {
        self.0
            .iter()
            .find(|(name, _)| name == ident)
            .map(|(_, values)| &values[..])
    }
}

/// The main line of the first game in `text`, root first.
pub(crate) fn main_line(text: &str) -> Result<Vec<Node>, String> {
    let mut chars = text.chars().peekable();
    let mut nodes = Vec::new();
    // How deep we are in trees, and whether the main line has ended: the
    // first `)` closes the leaf the first variations lead to.
    let mut depth = 0usize;
    let mut ended = false;
    while let Some(c) = chars.next() {
        match c {
            '(' => depth += 1,
            ')' => {
                if depth == 0 {
                    return Err("')' with no tree open".into());
                }
                ended = true;
                depth -= 1;
                if depth == 0 {
                    return Ok(nodes);
                }
            }
            ';' => {
                let mut node = Vec::new();
                loop {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                    let mut ident = String::new();
                    while let Some(&c) = chars.peek().filter(|c| c.is_ascii_uppercase()) {
                        ident.push(c);
                        chars.next();
                    }
                    if ident.is_empty() {
                        break;
                    }
                    let mut values = Vec::new();
                    loop {
                        while chars.peek().is_some_and(|c| c.is_whitespace()) {
                            chars.next();
                        }
                        if chars.peek() != Some(&'[') {
                            break;
                        }
                        chars.next();
                        let mut value = String::new();
                        loop {
                            match chars.next() {
                                None => return Err(format!("{ident}: value not closed")),
                                Some('\\') => value.extend(chars.next()),
                                Some(']') => break,
                                Some(c) => value.push(c),
                            }
                        }
                        values.push(value);
                    }
                    node.push((ident, values));
                }
                if !ended {
                    nodes.push(Node(node));
                }
            }
            _ => {}
        }
    }
    Err("the game's tree is not closed".into())
}

/// The moves of a main line in order, each as its colour and point
/// (`B`/`W`, the letters, `""` for a pass; `tt` is a pass too).
pub(crate) fn moves(nodes: &[Node]) -> Vec<(String, String)> {
    let mut moves = Vec::new();
    for node in nodes {
        for (ident, values) in &node.0 {
            if ident == "B" || ident == "W" {
                let point = values.first().cloned().unwrap_or_default();
                let point = if point == "tt" { String::new() } else { point };
                moves.push((ident.clone(), point));
            }
        }
    }
    moves
}

/// The setup stones of property `ident` (`AB`, `AW`) in a node, each point
/// once, compressed lists (`aa:bb`) opened, sorted.
pub(crate) fn setup(node: &Node, ident: &str) -> Vec<String> {
    let mut points = Vec::new();
    for value in node.get(ident).unwrap_or_default() {
        let letters: Vec<char> = value.chars().collect();
        match letters[..] {
            [a, b, ':', c, d] => {
                for column in a.min(c)..=a.max(c) {
                    for row in b.min(d)..=b.max(d) {
                        points.push(format!("{column}{row}"));
                    }
                }
            }
            _ => points.push(value.clone()),
        }
    }
    points.sort();
    points.dedup();
    points
}
