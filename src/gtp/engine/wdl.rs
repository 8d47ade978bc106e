//! Play from win/draw/loss tables (`table::wdl`), and
//! `smallgo-table-info`: which kind of table serves the board.
//!
//! A board's win/draw/loss tables come from the `--tables` folder, one
//! komi each. When one is for the game's komi (the same side of every whole
//! number), `genmove` plays from it: a win is finished by the least rank,
//! a draw is kept (a pass first), a loss resisted; a move that repeats a
//! state of the game is a draw, as with full tables. At another komi,
//! `genmove` plays from the board's full values and the log says so; a
//! board with no full values refuses with the komi the table is for.

use std::sync::Arc;

use super::{failure, success, Engine, Reply, SYNTAX_ERROR};
use crate::rules::board::Board;
use crate::rules::colour::Colour;
use crate::table::wdl::{komi_text, Rated, WdlTable};

impl Engine {
    /// The win/draw/loss tables of the game's board, opened on first use.
    pub(super) fn wdl_tables(&mut self) -> Vec<Arc<WdlTable>> {
        let board = self.board();
        match &self.wdl {
            Some((opened, tables)) if *opened == board => tables.clone(),
            _ => {
                let tables = if self.library.has_wdl(board) {
                    self.library.wdl_tables(board)
                } else {
                    Vec::new()
                };
                self.wdl = Some((board, tables.clone()));
                tables
            }
        }
    }

    /// The komis of `tables`, as `7.5, 0`.
    fn komis(tables: &[Arc<WdlTable>]) -> String {
        let texts: Vec<String> = tables.iter().map(|t| komi_text(t.komi2())).collect();
        texts.join(", ")
    }

    /// `genmove`'s move from a win/draw/loss table: `None` when none
    /// serves the board at this komi and full values can play instead.
    pub(super) fn wdl_move(&mut self, side: Colour) -> Option<Result<Rated, String>> {
        let tables = self.wdl_tables();
        if tables.is_empty() {
            return None;
        }
        let board = self.board();
        let proxy = self.komi.proxy();
        let Some(table) = tables.iter().find(|t| t.serves_komi(proxy)) else {
            let komis = Self::komis(&tables);
            if self.oracle().is_ok() {
                log::warn!(
                    "{board}: the win/draw/loss tables are for komi {komis}, the game's is {}: \
                     playing from the full values",
                    self.komi.text()
                );
                return None;
            }
            return Some(Err(format!(
                "the win/draw/loss table of {board} is for komi {komis}, not {}",
                self.komi.text()
            )));
        };
        let game = &self.game;
        let state = game.state_for(side);
        let repeats = |mv| {
            game.after(side, mv)
                .map(|next| game.has_stood(&next))
                .unwrap_or(false)
        };
        Some(
            table
                .choose(&state, side.is_black(), &repeats)
                .map_err(|error| error.to_string()),
        )
    }

    /// Whether `board` can be played from a win/draw/loss table alone.
    pub(super) fn has_wdl_table(&self, board: Board) -> bool {
        self.library.has_wdl(board)
    }

    /// `smallgo-table-info`: one line per kind of table of the board:
    /// `full SOURCE` or `full none`, then `wdl komi K SOURCE [serves]` for
    /// each win/draw/loss table, `serves` on the one `genmove` plays from at
    /// the game's komi.
    pub(super) fn table_info(&mut self, arguments: &[&str]) -> Reply {
        if !arguments.is_empty() {
            return failure(SYNTAX_ERROR);
        }
        let mut lines = vec![match self.library.open(self.board()) {
            Some(values) => format!("full {}", values.description()),
            None => "full none".to_string(),
        }];
        let proxy = self.komi.proxy();
        for table in self.wdl_tables() {
            lines.push(format!(
                "wdl komi {} {}{}",
                komi_text(table.komi2()),
                table.origin(),
                if table.serves_komi(proxy) {
                    " serves"
                } else {
                    ""
                }
            ));
        }
        success(lines.join("\n"))
    }
}
