//! The plugins the state folder records as installed. OpenClaw 2026.9.6 keeps its installed
//! plugin index in the state database `<state>/state/openclaw.sqlite`
//! (`resolveOpenClawStateSqlitePath`), as the JSON of the `config_machine_state` row keyed
//! `plugins.installedIndex` (`src/plugins/installed-plugin-index-row.ts`): `plugins[]` (one
//! record per plugin: `pluginId`, `origin`, `enabled`, …) and `installRecords` (by plugin id),
//! parsed by `parseInstalledPluginIndex` (`src/plugins/installed-plugin-index-store.ts`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde_json::Value;

/// The state key of the installed plugin index (`INSTALLED_PLUGIN_INDEX_STATE_KEY`).
const INDEX_KEY: &str = "plugins.installedIndex";

/// The state database under a state folder.
pub fn state_database(state_dir: &Path) -> PathBuf {
    state_dir.join("state").join("openclaw.sqlite")
}

/// The plugin ids beside the bundled ones that the state folder records as installed: the
/// index's records whose origin is not `bundled` and that are not disabled, and every id with
/// an install record. `Ok(None)` when the folder holds no state database or no index; `Err`
/// with a sentence naming the file when the database or the index cannot be read. The
/// database is opened read-only and immutable (nothing beside it is created).
pub fn installed(state_dir: &Path) -> Result<Option<BTreeSet<String>>, String> {
    let path = state_database(state_dir);
    if !path.is_file() {
        return Ok(None);
    }
    let why = |e: &dyn std::fmt::Display| format!("cannot read the installed plugins in {}: {e}", path.display());
    let uri = format!("file:{}?mode=ro&immutable=1", path.display());
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(uri, flags).map_err(|e| why(&e))?;
    let table: Option<String> = conn
        .query_row(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'config_machine_state'",
            [],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| why(&e))?;
    if table.is_none() {
        return Ok(None);
    }
    let row: Option<String> = conn
        .query_row(
            "SELECT value_json FROM config_machine_state WHERE state_key = ?1",
            [INDEX_KEY],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| why(&e))?;
    let Some(text) = row else { return Ok(None) };
    let index: Value = serde_json::from_str(&text).map_err(|e| why(&e))?;
    Ok(Some(installed_in_index(&index)))
}

/// The non-bundled plugin ids an installed plugin index records (see [`installed`]).
pub fn installed_in_index(index: &Value) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for record in index["plugins"].as_array().into_iter().flatten() {
        let Some(id) = record["pluginId"].as_str().map(str::trim).filter(|s| !s.is_empty()) else {
            continue;
        };
        if record["origin"].as_str() == Some("bundled") || record["enabled"] == Value::Bool(false) {
            continue;
        }
        ids.insert(id.to_lowercase());
    }
    if let Some(records) = index["installRecords"].as_object() {
        ids.extend(
            records
                .keys()
                .map(|k| k.trim().to_lowercase())
                .filter(|k| !k.is_empty()),
        );
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state folder whose database holds `index` under the release's key, in the table the
    /// release creates (`config_machine_state`, from its state schema).
    fn state_with(index: &Value) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("state")).unwrap();
        let conn = Connection::open(state_database(dir.path())).unwrap();
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS config_machine_state (\n  state_key TEXT NOT NULL PRIMARY KEY,\n  \
             value_json TEXT NOT NULL,\n  updated_at_ms INTEGER NOT NULL\n) STRICT;",
        )
        .unwrap();
        conn.execute(
            "INSERT INTO config_machine_state (state_key, value_json, updated_at_ms) VALUES (?1, ?2, 1)",
            rusqlite::params![INDEX_KEY, index.to_string()],
        )
        .unwrap();
        dir
    }

    #[test]
    fn the_state_database_names_the_installed_plugins() {
        let index = serde_json::json!({
            "version": 1,
            "plugins": [
                {"pluginId": "anthropic", "origin": "bundled", "enabled": true},
                {"pluginId": "moonshot", "origin": "global", "enabled": true},
                {"pluginId": "kilocode", "origin": "global", "enabled": false},
            ],
            "installRecords": {"opencode": {"source": "npm"}},
        });
        let dir = state_with(&index);
        let found = installed(dir.path()).unwrap().unwrap();
        assert_eq!(
            found.into_iter().collect::<Vec<_>>(),
            ["moonshot", "opencode"],
            "bundled and disabled plugins are not ClawHub installs"
        );
        // Read without writing anything beside the database.
        let names: Vec<_> = std::fs::read_dir(dir.path().join("state")).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn the_recorded_plugins_own_their_providers() {
        use crate::policy::{Installation, Ownership, owner::owner};
        let recorded = |plugins: Value| {
            let dir = state_with(&serde_json::json!({"version": 1, "plugins": plugins}));
            Installation::Known(installed(dir.path()).unwrap().unwrap())
        };
        let with_moonshot =
            recorded(serde_json::json!([{"pluginId": "moonshot", "origin": "global", "enabled": true}]));
        let it = owner("moonshot", "kimi-k2.6", &with_moonshot);
        assert!(matches!(it, Ownership::Clawhub { .. }), "{it:?}");
        let without = recorded(serde_json::json!([{"pluginId": "anthropic", "origin": "bundled", "enabled": true}]));
        assert_eq!(
            owner("moonshot", "kimi-k2.6", &without),
            Ownership::MissingClawhub {
                plugin: "moonshot".into()
            }
        );
    }

    #[test]
    fn no_state_database_or_no_index_is_no_record() {
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(installed(empty.path()).unwrap(), None);
        let dir = state_with(&serde_json::json!({"plugins": []}));
        let conn = Connection::open(state_database(dir.path())).unwrap();
        conn.execute("DELETE FROM config_machine_state", []).unwrap();
        drop(conn);
        assert_eq!(installed(dir.path()).unwrap(), None);
    }

    #[test]
    fn an_unreadable_index_is_a_sentence_naming_the_file() {
        let dir = state_with(&serde_json::json!({}));
        let conn = Connection::open(state_database(dir.path())).unwrap();
        conn.execute("UPDATE config_machine_state SET value_json = '{not json'", [])
            .unwrap();
        drop(conn);
        let e = installed(dir.path()).unwrap_err();
        assert!(e.contains("openclaw.sqlite"), "{e}");
    }
}
