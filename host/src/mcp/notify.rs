//! Change notifications for resources and prompts: one thread watches
//! `.vault/` and `.vaultspec/skills/` (inotify, no link followed) and
//! tells every connected client what changed.
//!
//! A document written, created, renamed or removed is a [`Change::Document`]
//! (a client subscribed to one of its URIs gets
//! `notifications/resources/updated`); one that came or went also changes
//! the list (`notifications/resources/list_changed`); any change under the
//! skills folder changes the prompts (`notifications/prompts/list_changed`).
//! What a file is now is decided by its stamp against the last one seen,
//! so a write that leaves the bytes alone (a `touch`) is reported too, and
//! an event the watch cannot name (a folder moved, the queue overflowing)
//! makes it survey the whole tree and compare.
//!
//! Clients of 2025-11-25 hear through their session ([`Session`]:
//! `resources/subscribe`, `resources/unsubscribe`); those of 2026-07-28
//! through `subscriptions/listen`, whose filter names the URIs.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::Peer;
use tokio::sync::broadcast;

use super::context::ServerContext;
use super::resources::{self, DOCUMENT_TEMPLATE, FEATURE_TEMPLATE};
use super::vault_cache::watch::{Seen, Watch};
use crate::workspace::survey::{Stamp, is_real_folder, stamp, survey};

/// One change a client may be told of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// The document at this workspace path changed, came or went.
    Document(String),
    /// Documents came or went.
    Documents,
    /// The skills changed.
    Skills,
}

/// How long the watcher waits between looks when nothing happens (it also
/// arms a `.vault/` or skills folder that appears meanwhile).
const TICK: Duration = Duration::from_millis(250);

/// Changes queued for a slow client before it must start over.
const QUEUE: usize = 1024;

/// The server's watcher: changes go out on a broadcast channel.
pub struct Notifier {
    changes: broadcast::Sender<Change>,
    /// The workspace to watch, until [`Notifier::watch`] starts the thread.
    unwatched: Mutex<Option<PathBuf>>,
}

impl Notifier {
    /// A watcher of the workspace at `root`, not watching yet
    /// ([`Notifier::watch`]); `None` where the system offers no watch (and
    /// then no client is told of changes).
    pub fn new(root: &Path) -> Option<Arc<Notifier>> {
        // Probe once: a system without inotify never starts the thread.
        Watch::new()?;
        let (changes, _) = broadcast::channel(QUEUE);
        Some(Arc::new(Notifier {
            changes,
            unwatched: Mutex::new(Some(root.to_path_buf())),
        }))
    }

    /// Start the watching thread, the first time only. Its first survey
    /// stamps every document, so the server starts it once a client is
    /// answered rather than while one waits.
    pub fn watch(&self) {
        let Some(root) = self.unwatched.lock().ok().and_then(|mut root| root.take()) else {
            return;
        };
        let sender = self.changes.clone();
        let spawned = std::thread::Builder::new()
            .name("vaultspec-notify".into())
            .spawn(move || Watcher::new(root).run(&sender));
        if let Err(err) = spawned {
            tracing::warn!("changes will not be notified: no watcher thread: {err}");
        }
    }

    /// A receiver of every change from now on.
    pub fn listen(&self) -> broadcast::Receiver<Change> {
        self.changes.subscribe()
    }
}

/// The watcher thread's state.
struct Watcher {
    root: PathBuf,
    documents: Option<Watch>,
    skills: Option<Watch>,
    /// The [seal](Watcher::seal) of every `.md` file's stamp under
    /// `.vault/`, by workspace path.
    stamps: HashMap<Box<str>, u64>,
    /// The keys of the seals, drawn for this process.
    seals: RandomState,
}

impl Watcher {
    fn new(root: PathBuf) -> Self {
        let mut watcher = Watcher {
            root,
            documents: None,
            skills: None,
            stamps: HashMap::new(),
            seals: RandomState::new(),
        };
        watcher.rearm_documents();
        watcher.rearm_skills();
        watcher
    }

    /// Watch `.vault/` anew and take every document's stamp.
    fn rearm_documents(&mut self) {
        let vault = self.root.join(".vault");
        self.documents = None;
        if !is_real_folder(&vault) {
            self.stamps.clear();
            return;
        }
        let mut watch = Watch::new();
        if let Some(watch) = &mut watch
            && watch.arm(&vault, ".vault").is_err()
        {
            return;
        }
        self.documents = watch;
        self.stamps = self.sealed(survey(&vault).stamps);
    }

    /// A stamp as the watcher keeps it: a hash of it under keys of this
    /// process's own, which no file can be made to match on purpose. A
    /// vault's worth of whole stamps took as much memory as the vault
    /// cache's copy of them, for a comparison.
    fn seal(&self, stamp: &Stamp) -> u64 {
        self.seals.hash_one(stamp)
    }

    /// The sealed stamps of the `.md` files of a survey.
    fn sealed(&self, stamps: HashMap<String, Stamp>) -> HashMap<Box<str>, u64> {
        stamps
            .into_iter()
            .filter(|(path, _)| path.ends_with(".md"))
            .map(|(path, stamp)| (path.into_boxed_str(), self.seal(&stamp)))
            .collect()
    }

    /// Watch `.vaultspec/` (for a skills folder that comes) and the skills.
    fn rearm_skills(&mut self) {
        let framework = self.root.join(".vaultspec");
        self.skills = None;
        if !is_real_folder(&framework) {
            return;
        }
        let Some(mut watch) = Watch::new() else {
            return;
        };
        if watch.watch_dir(&framework, Some(".vaultspec")).is_err() {
            return;
        }
        let skills = framework.join("skills");
        if is_real_folder(&skills) && watch.arm(&skills, ".vaultspec/skills").is_err() {
            return;
        }
        self.skills = Some(watch);
    }

    /// Watch for the life of the process (the server's).
    fn run(mut self, changes: &broadcast::Sender<Change>) {
        loop {
            let documents = self.documents.as_ref().is_some_and(|w| w.wait(TICK));
            let skills = self.skills.as_ref().is_some_and(|w| w.wait(Duration::ZERO));
            if self.documents.is_none() && self.skills.is_none() {
                std::thread::sleep(TICK);
            }
            // A burst (an editor's save, a batch of writes) is one look.
            if documents || skills {
                std::thread::sleep(Duration::from_millis(5));
            }
            let mut found = Vec::new();
            self.look_at_documents(&mut found);
            if self.look_at_skills() {
                found.push(Change::Skills);
            }
            for change in found {
                // No receiver now is fine: nobody is listening.
                let _ = changes.send(change);
            }
        }
    }

    /// The document changes since the last look.
    fn look_at_documents(&mut self, found: &mut Vec<Change>) {
        let seen = match &mut self.documents {
            Some(watch) => watch.seen(),
            None if is_real_folder(&self.root.join(".vault")) => Seen::Unknown,
            None => return,
        };
        let now = match seen {
            Seen::Nothing => return,
            Seen::Files(paths) => {
                // Only the files named can have changed: their stamps are
                // compared and kept in place, not the whole vault's.
                let mut came_or_went = false;
                for path in paths.into_iter().filter(|p| p.ends_with(".md")) {
                    let now = match std::fs::symlink_metadata(self.root.join(&path)) {
                        Ok(meta) if meta.is_file() => Some(self.seal(&stamp(&meta))),
                        _ => None,
                    };
                    let before = match now {
                        Some(now) => self.stamps.insert(path.as_str().into(), now),
                        None => self.stamps.remove(path.as_str()),
                    };
                    if before != now {
                        came_or_went |= before.is_none() || now.is_none();
                        found.push(Change::Document(path));
                    }
                }
                if came_or_went {
                    found.push(Change::Documents);
                }
                return;
            }
            Seen::Unknown => {
                let before = std::mem::take(&mut self.stamps);
                self.rearm_documents();
                std::mem::replace(&mut self.stamps, before)
            }
        };
        let mut came_or_went = false;
        for (path, stamp) in &now {
            match self.stamps.get(path) {
                Some(old) if old == stamp => {}
                Some(_) => found.push(Change::Document(path.to_string())),
                None => {
                    came_or_went = true;
                    found.push(Change::Document(path.to_string()));
                }
            }
        }
        for path in self.stamps.keys().filter(|p| !now.contains_key(*p)) {
            came_or_went = true;
            found.push(Change::Document(path.to_string()));
        }
        if came_or_went {
            found.push(Change::Documents);
        }
        self.stamps = now;
    }

    /// Whether the skills changed since the last look.
    fn look_at_skills(&mut self) -> bool {
        let seen = match &mut self.skills {
            Some(watch) => watch.seen(),
            None if is_real_folder(&self.root.join(".vaultspec")) => Seen::Unknown,
            None => return false,
        };
        match seen {
            Seen::Nothing => false,
            Seen::Files(paths) => {
                // A folder named `skills` made or moved is unnamed (Unknown).
                paths.iter().any(|p| p.starts_with(".vaultspec/skills/"))
            }
            Seen::Unknown => {
                self.rearm_skills();
                true
            }
        }
    }
}

/// Every URI a client may have subscribed to that names the document at
/// `path`: its `file://` URI, its stem's template form, and for a feature
/// index its feature's.
pub fn uris_of(context: &ServerContext, path: &str) -> Vec<String> {
    let mut uris = vec![resources::file_uri(context, path)];
    let name = path.rsplit('/').next().unwrap_or(path);
    if let Some(stem) = name.strip_suffix(".md") {
        uris.push(DOCUMENT_TEMPLATE.replace("{stem}", stem));
    }
    if let Some(feature) = path
        .strip_prefix(".vault/index/")
        .and_then(|rest| rest.strip_suffix(".index.md"))
    {
        uris.push(FEATURE_TEMPLATE.replace("{feature}", feature));
    }
    uris
}

/// One 2025-11-25 client's subscriptions, kept for its session.
#[derive(Default)]
pub struct Session {
    subscribed: Mutex<HashSet<String>>,
    forwarding: Mutex<bool>,
}

impl Session {
    /// Subscribe to `uri`.
    pub fn subscribe(&self, uri: String) {
        self.subscribed
            .lock()
            .expect("subscriptions lock")
            .insert(uri);
    }

    /// Let `uri` go.
    pub fn unsubscribe(&self, uri: &str) {
        self.subscribed
            .lock()
            .expect("subscriptions lock")
            .remove(uri);
    }

    /// Tell `peer` of every change from now on, once per session, until
    /// it is gone.
    pub fn forward(
        self: &Arc<Self>,
        context: Arc<ServerContext>,
        notifier: &Notifier,
        peer: Peer<RoleServer>,
    ) {
        {
            let mut forwarding = self.forwarding.lock().expect("forwarding lock");
            if *forwarding {
                return;
            }
            *forwarding = true;
        }
        let mut changes = notifier.listen();
        let session = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                let change = match changes.recv().await {
                    Ok(change) => change,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Too slow to be told each: tell it everything moved.
                        if peer.notify_resource_list_changed().await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                let sent = match change {
                    Change::Documents => peer.notify_resource_list_changed().await,
                    Change::Skills => peer.notify_prompt_list_changed().await,
                    Change::Document(path) => {
                        let wanted: Vec<String> = {
                            let subscribed = session.subscribed.lock().expect("subscriptions lock");
                            uris_of(&context, &path)
                                .into_iter()
                                .filter(|uri| subscribed.contains(uri))
                                .collect()
                        };
                        let mut sent = Ok(());
                        for uri in wanted {
                            sent = peer
                                .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                                .await;
                            if sent.is_err() {
                                break;
                            }
                        }
                        sent
                    }
                };
                if sent.is_err() || peer.is_transport_closed() {
                    break;
                }
            }
        });
    }
}
