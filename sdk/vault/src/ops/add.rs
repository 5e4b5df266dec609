//! `vault add`: scaffold a new document from its template
//! (spec/vault-format.md §8, cli-verbs.md §3 `vault add`).

use super::{Change, apply};
use crate::date::Date;
use crate::doc::name::{self, Token};
use crate::doc::{Corpus, DocType};
use crate::error::{Error, Result};
use crate::storage::Storage;
use crate::{resolve, template};

/// The inputs of `vault add`, as given by the user (normalised here).
#[derive(Debug, Clone, Default)]
pub struct AddRequest {
    /// The document type name (`adr`, `plan` ...).
    pub doc_type: String,
    /// The feature tag (`#` optional).
    pub feature: String,
    /// The date in any lenient form; `None` means today.
    pub date: Option<String>,
    /// The title for the H1.
    pub title: Option<String>,
    /// The topic: filename infix and default title.
    pub topic: Option<String>,
    /// Documents to link in `related:` (stem, filename, path or wiki-link).
    pub related: Vec<String>,
    /// Extra `--tags`: only repeats of the two required tags are accepted.
    pub tags: Vec<String>,
    /// Plan tier `L1`..`L4` (default `L1` for plans).
    pub tier: Option<String>,
    /// Overwrite an existing file / accept a stem collision.
    pub force: bool,
    /// Compute everything, write nothing.
    pub dry_run: bool,
}

/// What `vault add` created.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Added {
    /// Workspace-relative path of the new document.
    pub path: String,
    /// Its type.
    #[serde(rename = "type")]
    pub doc_type: DocType,
    /// Its stem.
    pub name: String,
    /// The git blob id of the written bytes.
    pub blob_hash: String,
    /// Whether nothing was written.
    pub dry_run: bool,
    /// The full text written.
    #[serde(skip)]
    pub text: String,
}

/// Normalises a tier value: `L1`..`L4` (case-insensitive).
pub fn normalize_tier(raw: &str) -> Result<String> {
    let t = raw.trim().to_uppercase();
    if matches!(t.as_str(), "L1" | "L2" | "L3" | "L4") {
        Ok(t)
    } else {
        Err(Error::InvalidTier {
            raw: raw.to_string(),
        })
    }
}

/// Plans a scaffold against a loaded corpus and template text, writing
/// nothing. Useful for batches (MCP `create`) that load the corpus once.
pub fn plan_add(
    corpus: &Corpus,
    template_text: &str,
    req: &AddRequest,
    today: Date,
) -> Result<(Added, Change)> {
    let doc_type: DocType = req.doc_type.trim().parse()?;
    match doc_type {
        DocType::Index => {
            return Err(Error::NotScaffolded {
                doc_type: "index".into(),
                instead: "run `vault feature index` to generate it",
            });
        }
        DocType::Exec => {
            return Err(Error::NotScaffolded {
                doc_type: "exec".into(),
                instead: "use `vault exec log` to create the ledger",
            });
        }
        _ => {}
    }
    let topic = match req.topic.as_deref() {
        Some(_) if !doc_type.takes_topic() => {
            return Err(Error::TopicNotAllowed {
                doc_type: doc_type.to_string(),
            });
        }
        Some(t) => Some(name::normalize(t, Token::Topic)?),
        None => None,
    };
    let feature = name::normalize(&req.feature, Token::Feature)?;
    let date = match req.date.as_deref() {
        Some(raw) => Date::parse_lenient(raw).map_err(|_| Error::InvalidDate {
            raw: raw.to_string(),
        })?,
        None => today,
    };
    let (dir_tag, feature_tag) = (doc_type.tag(), format!("#{feature}"));
    let extra: Vec<String> = req
        .tags
        .iter()
        .map(|t| format!("#{}", crate::doc::feature_arg(t).to_lowercase()))
        .filter(|t| *t != dir_tag && *t != feature_tag)
        .collect();
    if !extra.is_empty() {
        return Err(Error::UnsupportedTags {
            tags: extra,
            allowed_dir: dir_tag,
            allowed_feature: feature_tag,
        });
    }
    let tier = match (doc_type, req.tier.as_deref()) {
        (DocType::Plan, Some(t)) => Some(normalize_tier(t)?),
        (DocType::Plan, None) => Some("L1".to_string()),
        _ => None,
    };
    let related = resolve::resolve_links(corpus, &req.related)?;
    let title = req
        .title
        .clone()
        .or_else(|| topic.as_ref().map(|t| t.replace('-', " ")));
    let path = name::doc_path(doc_type, date, &feature, topic.as_deref());
    let stem = crate::doc::stem_of(&path).to_string();
    if !req.force
        && let Some(other) = corpus.by_stem(&stem).first()
    {
        return Err(if other.path == path {
            Error::FileExists { path }
        } else {
            Error::StemTaken {
                stem,
                path: other.path.clone(),
            }
        });
    }
    let text = template::hydrate(
        template_text,
        &template::Fill {
            feature: &feature,
            date,
            title: title.as_deref(),
            tier: tier.as_deref(),
            plan_stem: None,
            related: &related,
        },
    );
    let added = Added {
        blob_hash: crate::hash::blob_oid(text.as_bytes()),
        path: path.clone(),
        doc_type,
        name: stem,
        dry_run: req.dry_run,
        text: text.clone(),
    };
    Ok((
        added,
        Change::Write {
            path,
            bytes: text.into_bytes(),
        },
    ))
}

/// `vault add`: scaffolds one document. Refusals write nothing. The feature
/// index is not refreshed (the reference's `vault add` does not either; its
/// MCP `create` does, and so does ours, once per batch).
pub fn add(storage: &dyn Storage, req: &AddRequest, today: Date) -> Result<Added> {
    add_holding(storage, req, today, |_| Ok::<(), Error>(()))
}

/// [`add`], with `hold` called on the new document's path once it is
/// planned and before the path is checked and written (not on a dry run);
/// what `hold` returns is kept until the write is done. The MCP `create`
/// tool holds the reference's sentinel of the new document there, since a
/// reference process may make the file after the corpus was read.
pub fn add_holding<G, E: From<Error>>(
    storage: &dyn Storage,
    req: &AddRequest,
    today: Date,
    hold: impl FnOnce(&str) -> std::result::Result<G, E>,
) -> std::result::Result<Added, E> {
    super::begin(storage, req.dry_run)?;
    let doc_type: DocType = req.doc_type.trim().parse()?;
    let corpus = Corpus::load(storage)?;
    let template_text = template::load(storage, doc_type)?;
    let (added, change) = plan_add(&corpus, &template_text, req, today)?;
    let _held = if req.dry_run {
        None
    } else {
        Some(hold(&added.path)?)
    };
    if !req.force && storage.exists(&added.path).map_err(Error::from)? {
        return Err(Error::FileExists {
            path: added.path.clone(),
        }
        .into());
    }
    if !req.dry_run {
        apply(storage, &[change])?;
    }
    Ok(added)
}
