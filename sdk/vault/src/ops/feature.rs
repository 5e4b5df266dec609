//! `vault feature index` and `vault feature rename`: regenerate feature
//! indexes, and move a whole feature to a new tag (files, exec folders, tags,
//! incoming links and the index) in one planned batch.

use std::collections::{BTreeSet, HashMap};

use super::rename::repoint_related;
use super::{Change, Status, apply};
use crate::date::Date;
use crate::doc::name::{self, Token};
use crate::doc::{Corpus, Document};
use crate::error::{Error, Result};
use crate::frontmatter::edit::rewrite_items;
use crate::storage::Storage;
use crate::{hash, index};

/// What `vault feature index` did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Indexed {
    /// `updated` when any index was written, else `unchanged`.
    #[serde(skip)]
    pub status: Status,
    /// Workspace-relative paths of the indexes written.
    pub generated: Vec<String>,
}

/// `vault feature index`: regenerates the index of one feature, or of every
/// feature. Indexes already current are not rewritten.
pub fn index_features(
    storage: &dyn Storage,
    feature: Option<&str>,
    today: Date,
) -> Result<Indexed> {
    super::begin(storage, false)?;
    let corpus = Corpus::load(storage)?;
    let features = match feature {
        Some(f) => vec![name::normalize(f, Token::Feature)?],
        None => index::features(&corpus),
    };
    let mut changes = Vec::new();
    let mut generated = Vec::new();
    for f in &features {
        if let Some((path, change)) = index::plan_index(&corpus, f, today) {
            generated.push(path);
            changes.push(change);
        }
    }
    apply(storage, &changes)?;
    let status = if generated.is_empty() {
        Status::Unchanged
    } else {
        Status::Updated
    };
    Ok(Indexed { status, generated })
}

/// An old/new pair of paths or stems.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Moved {
    /// Before.
    pub old: String,
    /// After.
    pub new: String,
}

/// What `vault feature rename` did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FeatureRenamed {
    /// The old feature.
    pub old: String,
    /// The new feature.
    pub new: String,
    /// How many documents moved.
    pub renamed_count: usize,
    /// Each moved document (workspace-relative).
    pub paths: Vec<Moved>,
    /// Each renamed exec folder.
    pub exec_folders: Vec<Moved>,
    /// How many documents had their feature tag rewritten.
    pub tag_rewrites: usize,
    /// How many documents had `related:` items re-pointed.
    pub related_rewrites: usize,
    /// Each stem change, the index's included.
    pub link_renames: Vec<Moved>,
    /// The index path change, when the feature had or gets an index.
    pub index: Option<Moved>,
    /// Documents of other features whose links were re-pointed.
    pub cross_links: Vec<String>,
    /// Destinations that already existed.
    pub collisions: Vec<String>,
    /// Whether nothing was written on purpose.
    pub dry_run: bool,
    /// `updated`.
    pub status: Status,
}

/// `component` with the feature after its `yyyy-mm-dd-` prefix swapped.
fn swap_feature(component: &str, old: &str, new: &str) -> Option<String> {
    let rest = crate::date::after_date_prefix(component)
        .filter(|r| !r.is_empty())?
        .strip_prefix(old)?;
    (rest.is_empty() || rest.starts_with('-') || rest.starts_with('.'))
        .then(|| format!("{}{new}{rest}", &component[..11]))
}

fn renamed_path(path: &str, old: &str, new: &str) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i >= 2 {
                swap_feature(c, old, new).unwrap_or_else(|| c.to_string())
            } else {
                c.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Refuses a rename the exec folders cannot follow, as the reference does:
/// each folder holding a record of the feature must be `<date>-<old>`, and
/// every record in it must start with that same `<date>-<old>-` (a record
/// named after its own day instead of its plan's would be renamed to a
/// name no tool derives).
fn check_exec_folders(storage: &dyn Storage, members: &[&Document], old: &str) -> Result<()> {
    let folders: BTreeSet<&str> = members
        .iter()
        .filter_map(|d| d.path.strip_prefix(".vault/exec/"))
        .map(|rest| rest.rsplit_once('/').map_or("", |(folder, _)| folder))
        .collect();
    for folder in folders {
        let date = folder
            .strip_suffix(&format!("-{old}"))
            .filter(|d| crate::date::is_ymd_dashed_shape(d));
        let Some(date) = date else {
            return Err(Error::Invalid(format!(
                "exec folder `.vault/exec/{folder}` is not named `<date>-{old}`: rename it (or move its records) before renaming the feature"
            )));
        };
        let prefix = format!("{date}-{old}-");
        let dir = format!(".vault/exec/{folder}");
        for entry in storage.list(&dir)? {
            let Some(name) = entry.path.strip_prefix(&format!("{dir}/")) else {
                continue;
            };
            if name.ends_with(".md") && !name.contains('/') && !name.starts_with(&prefix) {
                return Err(Error::Invalid(format!(
                    "exec record `{}` does not start with its folder's `{prefix}`, so its new name cannot be derived: rename it first",
                    entry.path
                )));
            }
        }
    }
    Ok(())
}

/// `vault feature rename OLD NEW`: renames every document of the feature,
/// its exec folders, its tag, every link to its documents, and its index
/// (removed under the old name, regenerated under the new one).
pub fn rename_feature(
    storage: &dyn Storage,
    old: &str,
    new: &str,
    force: bool,
    dry_run: bool,
    today: Date,
) -> Result<FeatureRenamed> {
    super::begin(storage, dry_run)?;
    let old = name::normalize(old, Token::Feature)?;
    let new = name::normalize(new, Token::Feature)?;
    if old == new {
        return Err(Error::Invalid(format!(
            "feature `{old}` is already named `{new}`: give a different new name"
        )));
    }
    let corpus = Corpus::load(storage)?;
    let old_index = name::index_path(&old);
    let mut members: Vec<&Document> = corpus
        .feature_docs(&old)
        .filter(|d| d.path != old_index)
        .collect();
    if members.is_empty() {
        return Err(Error::Invalid(format!(
            "no document is tagged `#{old}`: nothing to rename"
        )));
    }
    // Renaming onto a feature that has documents merges the two: only with
    // `--force`, as in the reference.
    let taken = corpus.feature_docs(&new).count();
    if taken > 0 && !force {
        return Err(Error::Invalid(format!(
            "feature `#{new}` already has {taken} document(s): pass `--force` to merge `#{old}` into it, or choose another name"
        )));
    }
    members.sort_by_key(|d| (d.path.starts_with(".vault/exec/"), d.path.clone()));
    check_exec_folders(storage, &members, &old)?;
    let mut paths = Vec::new();
    let mut renames = HashMap::new();
    let mut link_renames = Vec::new();
    let mut exec_folders: Vec<Moved> = Vec::new();
    let mut collisions = Vec::new();
    for d in &members {
        let np = renamed_path(&d.path, &old, &new);
        if np == d.path {
            continue;
        }
        if storage.exists(&np)? {
            collisions.push(np.clone());
        }
        let new_stem = crate::doc::stem_of(&np).to_string();
        renames.insert(d.stem().to_lowercase(), new_stem.clone());
        link_renames.push(Moved {
            old: d.stem().to_owned(),
            new: new_stem,
        });
        let (od, nd) = (
            d.path.rsplit_once('/').map_or("", |p| p.0),
            np.rsplit_once('/').map_or("", |p| p.0),
        );
        if od != nd && od.starts_with(".vault/exec/") && !exec_folders.iter().any(|m| m.old == od) {
            exec_folders.push(Moved {
                old: od.to_string(),
                new: nd.to_string(),
            });
        }
        paths.push(Moved {
            old: d.path.clone(),
            new: np,
        });
    }
    // A file that would land on another file is refused even with
    // `--force` (and in a dry run, which previews the same refusal).
    if !collisions.is_empty() {
        return Err(Error::Invalid(format!(
            "renaming `#{old}` to `#{new}` would overwrite {}: move those first",
            collisions
                .iter()
                .map(|c| format!("`{c}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let had_index = corpus.by_path(&old_index).is_some();
    if had_index {
        renames.insert(format!("{old}.index"), format!("{new}.index"));
        link_renames.push(Moved {
            old: format!("{old}.index"),
            new: format!("{new}.index"),
        });
    }
    let member_paths: BTreeSet<&str> = members.iter().map(|d| d.path.as_str()).collect();
    let (old_tag, new_tag) = (format!("#{old}"), format!("#{new}"));
    let mut changes = Vec::new();
    let mut after_docs = Vec::new();
    let (mut tag_rewrites, mut related_rewrites, mut cross_links) = (0, 0, Vec::new());
    for d in corpus.docs.iter().filter(|d| d.path != old_index) {
        let is_member = member_paths.contains(d.path.as_str());
        let mut text = d.text.to_string();
        if is_member {
            let (t, n) = rewrite_items(&text, "tags", &|v: &str| {
                (v == old_tag).then(|| new_tag.clone())
            });
            tag_rewrites += usize::from(n > 0);
            text = t;
        }
        let (t, n) = repoint_related(&text, &renames);
        if n > 0 {
            related_rewrites += 1;
            if !is_member {
                cross_links.push(d.path.clone());
            }
        }
        text = t;
        let new_path = if is_member {
            renamed_path(&d.path, &old, &new)
        } else {
            d.path.clone()
        };
        if new_path != d.path {
            changes.push(Change::Rename {
                from: d.path.clone(),
                to: new_path.clone(),
            });
        }
        if *text != *d.text {
            text = hash::refresh_modified_stamp(&text, today);
            changes.push(Change::Write {
                path: new_path.clone(),
                bytes: text.clone().into_bytes(),
            });
        }
        after_docs.push(Document::from_text(&new_path, text));
    }
    if had_index {
        changes.push(Change::Remove {
            path: old_index.clone(),
        });
    }
    let after = Corpus::from_docs(after_docs, Vec::new());
    let new_index = name::index_path(&new);
    if let Some((_, c)) = index::plan_index(&after, &new, today) {
        changes.push(c);
    }
    if !dry_run {
        apply(storage, &changes)?;
    }
    Ok(FeatureRenamed {
        renamed_count: paths.len(),
        paths,
        exec_folders,
        tag_rewrites,
        related_rewrites,
        link_renames,
        index: Some(Moved {
            old: old_index,
            new: new_index,
        }),
        cross_links,
        collisions,
        dry_run,
        status: Status::Updated,
        old,
        new,
    })
}
