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
    let mut table = Table::new(header);
    for row in rows {
        table.measure(row);
    }
    let mut out = table.header_line();
    for row in rows {
        out.push_str(&table.line(row));
    }
    out
}

/// A table written a line at a time ([`render`] in parts): every row is measured first,
/// then written, so rows read twice from elsewhere need not be held.
#[derive(Debug, Clone)]
pub struct Table<'h> {
    header: &'h [(&'h str, Align)],
    widths: Vec<usize>,
}

impl<'h> Table<'h> {
    /// A table of `header`, as wide as it.
    pub fn new(header: &'h [(&'h str, Align)]) -> Table<'h> {
        Table { header, widths: header.iter().map(|(h, _)| h.chars().count()).collect() }
    }

    /// Widens the columns to `row`'s cells.
    pub fn measure(&mut self, row: &[String]) {
        for (w, cell) in self.widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }

    /// The header's line.
    pub fn header_line(&self) -> String {
        self.cells_line(self.header.iter().map(|(h, _)| *h).collect())
    }

    /// The line of `row`.
    pub fn line(&self, row: &[String]) -> String {
        self.cells_line(row.iter().map(String::as_str).collect())
    }

    fn cells_line(&self, cells: Vec<&str>) -> String {
        let last = cells.len().saturating_sub(1);
        let mut out = String::new();
        for (i, cell) in cells.into_iter().enumerate() {
            let pad = " ".repeat(self.widths[i].saturating_sub(cell.chars().count()));
            match self.header[i].1 {
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
    }
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
