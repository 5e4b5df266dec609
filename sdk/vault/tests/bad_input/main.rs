//! Bad input loses nothing (issue 14): a file that cannot be read or parsed
//! stays a document, is reported by name, and no fixer guesses at it.

mod double;
mod ledger;
mod malformed;
mod props;
mod survive;
mod unreadable;
mod vault;
