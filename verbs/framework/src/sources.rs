//! `list` and `show`: the sources under `.vaultspec/`.

use vaultspec_sdk::Workspace;
use vaultspec_sdk::output::{self, done, fail, usage};
use vaultspec_sdk::serde_json::json;
use vaultspec_sdk::vault::framework::source::read_text;
use vaultspec_sdk::vault::framework::{Kind, Sources, builtin, shown};

/// The envelope schema of a family's verb.
pub fn schema(kind: Kind, verb: &str) -> String {
    output::schema(&format!("spec {} {verb}", kind.folder()), 1)
}

/// `list`.
pub fn list(kind: Kind, json: bool) -> u8 {
    let sources = Sources::read(&Workspace::open());
    let items: Vec<_> = sources
        .of(kind)
        .iter()
        .map(|s| {
            let origin = if builtin::is_builtin_name(kind, &s.name) {
                "Built-in"
            } else {
                "Custom"
            };
            json!({"name": s.name, "source": origin, "description": s.description(), "path": s.path})
        })
        .collect();
    let problems: Vec<_> = sources
        .problems
        .iter()
        .map(|p| json!({"path": p.path, "message": p.message}))
        .collect();
    let data = json!({"items": items, "problems": problems});
    done(json, &schema(kind, "list"), "unchanged", &data, || {
        for problem in &sources.problems {
            eprintln!("warning: {}", shown(&problem.message));
        }
        if items.is_empty() {
            println!(
                "No {} in `{}`; add one with `vaultspec spec {} add NAME --body …`.",
                kind.folder(),
                kind.dir(),
                kind.folder()
            );
        }
        let text = |item: &vaultspec_sdk::serde_json::Value, key: &str| {
            shown(item[key].as_str().unwrap_or_default())
        };
        let width = items
            .iter()
            .map(|i| text(i, "name").len())
            .max()
            .unwrap_or(0);
        for item in &items {
            println!(
                "{:width$}  {:8}  {}",
                text(item, "name"),
                text(item, "source"),
                text(item, "description")
            );
        }
    })
}

/// `show`.
pub fn show(kind: Kind, typed: &str, json: bool) -> u8 {
    let name = match kind.typed_name(typed) {
        Ok(name) => name,
        Err(message) => return usage(json, &message),
    };
    let path = kind.path(&name);
    let text = match read_text(&Workspace::open(), &path) {
        Ok(text) => text,
        Err(message) => {
            return fail(
                json,
                format!(
                    "no {} `{name}` to show ({message}); `vaultspec spec {} list` names them",
                    kind.noun(),
                    kind.folder()
                ),
            );
        }
    };
    let data = json!({"name": name, "path": path, "content": text});
    done(json, &schema(kind, "show"), "unchanged", &data, || {
        print!("{text}")
    })
}
