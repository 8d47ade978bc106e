//! Building a board's table: the steps between the solver and the table
//! file that every build takes, whoever asks for it; and the folder's
//! manifest of the tables built there (`manifest`).

pub mod manifest;
