//! Reading a component's bytes without compiling them: its embedded
//! declaration and its real imports.
//!
//! Both come from one pass of `wasmparser`: the `vaultspec-wit` custom
//! section (the SDK places it in the component's core module) and the
//! outermost component's import section. Imports are what the component
//! really needs; the WIT world may name interfaces the code never calls.

use wasmparser::{Chunk, Encoding, Parser, Payload};

use super::error::Reason;

/// The custom section the SDK writes the verb's WIT source into.
pub const WIT_SECTION: &str = "vaultspec-wit";

/// What one pass over a component's bytes found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspection {
    /// The embedded WIT source, if any.
    pub declaration: Option<String>,
    /// The names the outermost component imports (`wasi:cli/stdout@0.2.6`).
    pub imports: Vec<String>,
}

/// Validate `bytes` as a WebAssembly component (`wasmparser`'s full
/// validation, names of imports and exports included) before anything else
/// reads them: a third-party file is checked here before its declaration is
/// parsed or its imports are listed. A core module is refused, naming the
/// target to build for.
pub fn validate(bytes: &[u8]) -> Result<(), Reason> {
    if wasmparser::Parser::is_core_wasm(bytes) {
        return Err(Reason::NotAComponent(
            "it is a core module; build it with `--target wasm32-wasip2`".into(),
        ));
    }
    if !wasmparser::Parser::is_component(bytes) {
        return Err(Reason::NotAComponent(
            "it does not start with the header of a component".into(),
        ));
    }
    wasmparser::Validator::new()
        .validate_all(bytes)
        .map_err(|e| Reason::NotAComponent(e.to_string()))?;
    Ok(())
}

/// Read the declaration and the imports of a component.
///
/// Function bodies are skipped, not read: they are most of a component's
/// bytes, and walking them was most of the cost of reading the builtins'
/// declarations at every start of the binary.
pub fn inspect(bytes: &[u8]) -> Result<Inspection, Reason> {
    let malformed = |e: wasmparser::BinaryReaderError| Reason::NotAComponent(e.to_string());
    let ends_early = || Reason::NotAComponent("the bytes end early".into());
    let mut declaration = None;
    let mut imports = Vec::new();
    // The parser of the component or module being read, and those of the
    // components it is nested in (empty: the outermost component).
    let mut parser = Parser::new(0);
    let mut outer: Vec<Parser> = Vec::new();
    let mut rest = bytes;
    loop {
        let payload = match parser.parse(rest, true).map_err(malformed)? {
            Chunk::Parsed { consumed, payload } => {
                rest = &rest[consumed..];
                payload
            }
            Chunk::NeedMoreData(_) => return Err(ends_early()),
        };
        match payload {
            Payload::Version { encoding, .. }
                if outer.is_empty() && encoding != Encoding::Component =>
            {
                return Err(Reason::NotAComponent(
                    "it is a core module; build it with `--target wasm32-wasip2`".into(),
                ));
            }
            Payload::ComponentImportSection(section) if outer.is_empty() => {
                for import in section {
                    let import = import.map_err(malformed)?;
                    // A type import (the options record of a top-level verb,
                    // defined in the world) names a type, not a capability.
                    if matches!(import.ty, wasmparser::ComponentTypeRef::Type(_)) {
                        continue;
                    }
                    imports.push(import.name.name.to_owned());
                }
            }
            Payload::CustomSection(section) if section.name() == WIT_SECTION => {
                let text = std::str::from_utf8(section.data()).map_err(|_| {
                    Reason::MalformedDeclaration("the declaration is not UTF-8".into())
                })?;
                if declaration.replace(text.to_owned()).is_some() {
                    return Err(Reason::MalformedDeclaration(
                        "the component carries more than one declaration".into(),
                    ));
                }
            }
            Payload::CodeSectionStart { size, .. } => {
                parser.skip_section();
                rest = rest.get(size as usize..).ok_or_else(ends_early)?;
            }
            Payload::ModuleSection { parser: inner, .. }
            | Payload::ComponentSection { parser: inner, .. } => {
                outer.push(std::mem::replace(&mut parser, inner));
            }
            Payload::End(_) => match outer.pop() {
                Some(enclosing) => parser = enclosing,
                None => break,
            },
            _ => {}
        }
    }
    if !rest.is_empty() {
        return Err(Reason::NotAComponent(
            "bytes follow the end of the component".into(),
        ));
    }
    Ok(Inspection {
        declaration,
        imports,
    })
}

/// What a component may do beyond computing: read and write the workspace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Capabilities {
    /// It imports `vaultspec:verb/workspace-read`.
    pub read: bool,
    /// It imports `vaultspec:verb/workspace-write`.
    pub write: bool,
    /// It imports `vaultspec:verb/framework-write` (builtins only).
    pub framework: bool,
}

impl Capabilities {
    /// Whether it may change the workspace at all.
    pub fn writes(self) -> bool {
        self.write || self.framework
    }
}

/// Interfaces granted to every verb, by `namespace:package/interface`.
const GRANTED: [&str; 17] = [
    "wasi:io/poll",
    "wasi:io/error",
    "wasi:io/streams",
    "wasi:cli/environment",
    "wasi:cli/exit",
    "wasi:cli/stdin",
    "wasi:cli/stdout",
    "wasi:cli/stderr",
    "wasi:cli/terminal-input",
    "wasi:cli/terminal-output",
    "wasi:cli/terminal-stdin",
    "wasi:cli/terminal-stdout",
    "wasi:cli/terminal-stderr",
    "wasi:clocks/wall-clock",
    "wasi:clocks/monotonic-clock",
    "wasi:random/random",
    "wasi:random/insecure-seed",
];

const READ: &str = "vaultspec:verb/workspace-read";
/// Read-only like [`READ`]: the vault's history, read by the host.
const HISTORY: &str = "vaultspec:verb/vault-history";
/// Grants nothing beyond the files a verb may read: results it worked out
/// from them, kept by the host.
const KEPT: &str = "vaultspec:verb/kept-results";
const WRITE: &str = "vaultspec:verb/workspace-write";
/// The import only builtins are granted; see [`Capabilities::framework`].
pub const FRAMEWORK: &str = "vaultspec:verb/framework-write";

/// Check every import against what the sandbox grants, and say which
/// workspace capabilities the component uses.
pub fn capabilities(imports: &[String]) -> Result<Capabilities, Reason> {
    let mut caps = Capabilities::default();
    for import in imports {
        let (name, version) = import.split_once('@').unwrap_or((import, ""));
        let major_ok = |wanted: &str| version.starts_with(wanted);
        if name == READ && major_ok("0.1.") {
            caps.read = true;
        } else if name == WRITE && major_ok("0.1.") {
            caps.write = true;
        } else if name == FRAMEWORK && major_ok("0.1.") {
            caps.framework = true;
        } else if name == HISTORY && major_ok("0.1.") {
            caps.read = true;
        } else {
            // Granted, and no workspace capability of their own.
            let plain = (name == KEPT && major_ok("0.1."))
                || ((GRANTED.contains(&name) || name == "wasi:random/insecure")
                    && major_ok("0.2."));
            if !plain {
                return Err(Reason::ImportNotGranted(import.clone()));
            }
        }
    }
    Ok(caps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn std_and_workspace_imports_are_granted() {
        let caps = capabilities(&names(&[
            "wasi:cli/stdout@0.2.6",
            "wasi:io/streams@0.2.6",
            "vaultspec:verb/workspace-read@0.1.0",
            "vaultspec:verb/workspace-write@0.1.0",
            "vaultspec:verb/vault-history@0.1.0",
            "vaultspec:verb/kept-results@0.1.0",
        ]))
        .unwrap();
        assert_eq!(
            caps,
            Capabilities {
                read: true,
                write: true,
                framework: false,
            }
        );
    }

    #[test]
    fn filesystem_sockets_and_http_are_refused_by_name() {
        for import in [
            "wasi:filesystem/preopens@0.2.6",
            "wasi:sockets/tcp@0.2.6",
            "wasi:http/outgoing-handler@0.2.6",
            "vaultspec:verb/workspace-write@0.2.0",
        ] {
            let err = capabilities(&names(&[import])).unwrap_err();
            assert!(err.to_string().contains(import), "{err}");
        }
    }

    #[test]
    fn a_core_module_or_garbage_is_not_a_component() {
        assert!(matches!(
            inspect(b"\0asm\x01\0\0\0"),
            Err(Reason::NotAComponent(_))
        ));
        assert!(matches!(inspect(b"hello"), Err(Reason::NotAComponent(_))));
        assert!(matches!(
            validate(b"\0asm\x01\0\0\0"),
            Err(Reason::NotAComponent(_))
        ));
        assert!(matches!(validate(b"hello"), Err(Reason::NotAComponent(_))));
        // A component header with a truncated section after it.
        assert!(matches!(
            validate(b"\0asm\x0d\0\x01\0\x01\x05"),
            Err(Reason::NotAComponent(_))
        ));
        assert!(matches!(
            inspect(b"\0asm\x0d\0\x01\0\x01\x05"),
            Err(Reason::NotAComponent(_))
        ));
    }

    /// Every payload's declaration and outermost imports, read the slow
    /// way: each function body visited.
    fn read_everything(bytes: &[u8]) -> (Vec<String>, Vec<String>) {
        let (mut declarations, mut imports, mut depth) = (Vec::new(), Vec::new(), 0);
        for payload in Parser::new(0).parse_all(bytes) {
            match payload.unwrap() {
                Payload::Version { .. } => depth += 1,
                Payload::End(_) => depth -= 1,
                Payload::ComponentImportSection(section) if depth == 1 => {
                    for import in section {
                        let import = import.unwrap();
                        if !matches!(import.ty, wasmparser::ComponentTypeRef::Type(_)) {
                            imports.push(import.name.name.to_owned());
                        }
                    }
                }
                Payload::CustomSection(s) if s.name() == WIT_SECTION => {
                    declarations.push(String::from_utf8(s.data().to_vec()).unwrap());
                }
                _ => {}
            }
        }
        (declarations, imports)
    }

    #[test]
    fn skipping_function_bodies_finds_what_reading_them_finds() {
        for builtin in crate::builtins::BUILTINS {
            let found = inspect(builtin.wasm).unwrap();
            let (declarations, imports) = read_everything(builtin.wasm);
            assert_eq!(
                found.declaration.into_iter().collect::<Vec<_>>(),
                declarations,
                "{}",
                builtin.name
            );
            assert_eq!(found.imports, imports, "{}", builtin.name);
        }
        // Cut anywhere (inside a code section included), a component is
        // refused, never read as if it ended there.
        let wasm = crate::builtins::BUILTINS[0].wasm;
        for cut in [9, wasm.len() / 3, wasm.len() / 2, wasm.len() - 1] {
            assert!(
                matches!(inspect(&wasm[..cut]), Err(Reason::NotAComponent(_))),
                "cut at {cut}"
            );
        }
        let mut trailing = wasm.to_vec();
        trailing.extend_from_slice(b"\0asm");
        assert!(inspect(&trailing).is_err());
    }
}
