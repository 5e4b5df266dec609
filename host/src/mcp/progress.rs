//! Progress of a tool call that runs on, for a client that asked for it:
//! `notifications/progress` with the request's token, every
//! [`PROGRESS_EVERY`], saying how long the call has run so far.
//!
//! The figure is the seconds elapsed: it grows with every notification, as
//! the protocol asks, and says something true of every tool, whose work
//! has no count of items known in advance.

use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::Peer;
use tokio::task::JoinHandle;
use tokio::time::{Instant, interval_at};

/// How often a running call reports progress.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// Reports the progress of one call until dropped.
pub struct Progress {
    task: JoinHandle<()>,
}

impl Progress {
    /// Report the progress of the call of `tool` to `peer` under `token`,
    /// from [`PROGRESS_EVERY`] on.
    pub fn start(peer: Peer<RoleServer>, token: ProgressToken, tool: &str) -> Self {
        let tool = tool.to_owned();
        let task = tokio::spawn(async move {
            let start = Instant::now();
            let mut ticks = interval_at(start + PROGRESS_EVERY, PROGRESS_EVERY);
            loop {
                ticks.tick().await;
                let seconds = (start.elapsed().as_secs_f64() * 10.0).round() / 10.0;
                let note = ProgressNotificationParam::new(token.clone(), seconds)
                    .with_message(format!("`{tool}` has run for {seconds:.1} s"));
                if peer.notify_progress(note).await.is_err() {
                    break;
                }
            }
        });
        Self { task }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.task.abort();
    }
}
