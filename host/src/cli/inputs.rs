//! Reading the files a verb's `input: file` flags name, at the command line.
//!
//! The value is the user's own input, so it may be any readable path
//! (relative to the current folder, inside the workspace or not) or `-` for
//! standard input. The host reads it here, with the user's authority, and the
//! verb is handed the bytes under the value it sees (see
//! [`crate::sandbox::Inputs`]): a path becomes absolute so that the verb's
//! messages name the file the user meant.

use std::io::Read;
use std::path::Path;

use vaultspec_vault::storage::MAX_FILE_BYTES;

use crate::catalog::VerbSpec;
use crate::invocation::{FlagValue, Invocation};
use crate::sandbox::Inputs;

/// The name standard input is given under.
const STDIN: &str = "-";

/// Read every input file `invocation` names for `spec`, rewriting each value
/// to the name the verb will read it under; `stdin` is read for `-`. The
/// error names the flag and the file, and says what went wrong.
pub fn read(
    spec: &VerbSpec,
    invocation: &mut Invocation,
    cwd: &Path,
    stdin: &mut dyn Read,
) -> Result<Inputs, String> {
    let mut files = Vec::new();
    let mut stdin_used_by: Option<&str> = None;
    for flag in spec.flags.iter().filter(|f| f.input) {
        let Some(FlagValue::Values(values)) = invocation.flags.get_mut(&flag.name) else {
            continue;
        };
        for value in values.iter_mut() {
            let (name, bytes) = if value == STDIN {
                if let Some(first) = stdin_used_by {
                    return Err(format!(
                        "`--{}` and `--{first}` both ask for standard input (`-`), which can feed only one",
                        flag.name
                    ));
                }
                stdin_used_by = Some(&flag.name);
                let bytes = limited(stdin).map_err(|e| {
                    format!("cannot read `--{}` from standard input: {e}", flag.name)
                })?;
                (STDIN.to_owned(), bytes)
            } else {
                let path = cwd.join(&*value);
                let name = path.to_str().ok_or_else(|| {
                    format!(
                        "`--{}` names `{}`, whose path is not UTF-8: rename the file or pipe it in with `-`",
                        flag.name,
                        path.display()
                    )
                })?;
                // Not the checked reader: a file the person names at the
                // command line may be a pipe on purpose (`<(…)`); it is
                // capped all the same, and no client reaches these flags
                // (the gateway blocks them).
                let bytes = std::fs::File::open(&path)
                    .and_then(|mut file| limited(&mut file))
                    .map_err(|e| format!("cannot read `--{}` file `{value}`: {e}", flag.name))?;
                (name.to_owned(), bytes)
            };
            if bytes.len() as u64 > MAX_FILE_BYTES {
                return Err(format!(
                    "`--{}` file `{value}` is over the {MAX_FILE_BYTES}-byte limit for one file",
                    flag.name
                ));
            }
            value.clone_from(&name);
            files.push((name, bytes));
        }
    }
    Ok(Inputs::new(files))
}

/// Up to one byte past the per-file limit, so an oversized input is noticed
/// without reading all of it.
fn limited(reader: &mut dyn Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> VerbSpec {
        let source = r#"
package acme:notes@0.1.0;

interface notes {
    record put-options {
        /// The new text.
        /// input: file
        body-file: option<string>,
        /// A note.
        /// input: file
        note: option<string>,
        /// A title.
        title: option<string>,
    }

    /// Put a note.
    put: func(options: put-options) -> u8;
}

world w {
    export notes;
}
"#;
        crate::catalog::parse(source).unwrap().remove(0)
    }

    fn invocation(flags: &[(&str, &str)]) -> Invocation {
        Invocation {
            flags: flags
                .iter()
                .map(|(k, v)| ((*k).to_owned(), FlagValue::Values(vec![(*v).to_owned()])))
                .collect(),
            ..Invocation::default()
        }
    }

    fn value<'a>(invocation: &'a Invocation, flag: &str) -> &'a str {
        match &invocation.flags[flag] {
            FlagValue::Values(values) => &values[0],
            FlagValue::Switch(_) => unreachable!(),
        }
    }

    #[test]
    fn a_relative_path_is_read_from_the_current_folder_and_named_absolutely() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("body.md"), "text").unwrap();
        let mut inv = invocation(&[("body-file", "body.md"), ("title", "body.md")]);
        let inputs = read(&spec(), &mut inv, dir.path(), &mut std::io::empty()).unwrap();
        let name = dir.path().join("body.md").to_str().unwrap().to_owned();
        assert_eq!(value(&inv, "body-file"), name);
        assert_eq!(inputs.get(&name), Some(&b"text"[..]));
        assert_eq!(
            value(&inv, "title"),
            "body.md",
            "other flags are left alone"
        );
    }

    #[test]
    fn a_dash_reads_standard_input_once() {
        let mut inv = invocation(&[("body-file", "-")]);
        let inputs = read(&spec(), &mut inv, Path::new("/"), &mut &b"piped"[..]).unwrap();
        assert_eq!(inputs.get("-"), Some(&b"piped"[..]));
        let mut inv = invocation(&[("body-file", "-"), ("note", "-")]);
        let err = read(&spec(), &mut inv, Path::new("/"), &mut &b"x"[..]).unwrap_err();
        assert!(err.contains("standard input"), "{err}");
    }

    #[test]
    fn an_unreadable_or_oversized_file_is_named_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut inv = invocation(&[("body-file", "missing.md")]);
        let err = read(&spec(), &mut inv, dir.path(), &mut std::io::empty()).unwrap_err();
        assert_eq!(err.matches("missing.md").count(), 1, "{err}");
        assert!(
            err.starts_with("cannot read `--body-file` file `missing.md`: "),
            "{err}"
        );
        std::fs::write(
            dir.path().join("big.md"),
            vec![b'a'; MAX_FILE_BYTES as usize + 1],
        )
        .unwrap();
        let mut inv = invocation(&[("body-file", "big.md")]);
        let err = read(&spec(), &mut inv, dir.path(), &mut std::io::empty()).unwrap_err();
        assert!(err.contains("over the"), "{err}");
    }
}
