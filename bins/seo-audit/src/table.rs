//! Plain-text tables of the command line (`keys list`): every column as wide as its widest
//! cell, header included, so the columns line up whatever the values are.

/// How a column's cells sit in its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text: padded on the right.
    Left,
    /// Numbers: padded on the left.
    Right,
}

/// The table of `header` and `rows`, one line each, columns two spaces apart; the last
/// column is not padded (no trailing spaces). Widths count characters, not bytes.
pub fn render(header: &[(&str, Align)], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|(h, _)| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let last = cells.len().saturating_sub(1);
        let mut out = String::new();
        for (i, cell) in cells.into_iter().enumerate() {
            let pad = " ".repeat(widths[i].saturating_sub(cell.chars().count()));
            match header[i].1 {
                Align::Right => {
                    out.push_str(&pad);
                    out.push_str(cell);
                }
                Align::Left if i == last => out.push_str(cell),
                Align::Left => {
                    out.push_str(cell);
                    out.push_str(&pad);
                }
            }
            if i != last {
                out.push_str("  ");
            }
        }
        out.push('\n');
        out
    };
    let mut out = line(header.iter().map(|(h, _)| *h).collect());
    for row in rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_whatever_the_values() {
        let header = [("ID", Align::Left), ("TIER", Align::Left), ("RPM", Align::Right), ("NAME", Align::Left)];
        let rows = vec![
            vec!["a".to_string(), "pro".to_string(), "5".to_string(), "ci".to_string()],
            vec!["bbbbbb".to_string(), "anonymous".to_string(), "1000".to_string(), "größe".to_string()],
        ];
        assert_eq!(
            render(&header, &rows),
            "ID      TIER        RPM  NAME\n\
             a       pro           5  ci\n\
             bbbbbb  anonymous  1000  größe\n"
        );
        assert_eq!(render(&header, &[]), "ID  TIER  RPM  NAME\n");
    }
}
