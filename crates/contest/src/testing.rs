//! The stores every store test runs on: a SQLite file in a fresh folder,
//! and a database on a throw-away PostgreSQL cluster when the server is
//! installed (else a visible skip line), removed when dropped.

use versus_sql::scratch::ScratchCluster;

use crate::db::Db;

pub(crate) struct Stores {
    /// `sqlite:PATH`'s path, then the PostgreSQL URL.
    pub locators: Vec<String>,
    pub dir: tempfile::TempDir,
    _cluster: Option<ScratchCluster>,
}

impl Stores {
    /// Each store, opened, with its locator.
    pub fn each(&self) -> impl Iterator<Item = (Db, &str)> + '_ {
        self.locators.iter().map(|l| (Db::connect(l).unwrap(), l.as_str()))
    }
}

pub(crate) fn stores(name: &str) -> Stores {
    let dir =
        tempfile::Builder::new().prefix(&format!("versus-contest-{name}-")).tempdir().unwrap();
    let mut locators = vec![dir.path().join("contest.sqlite").display().to_string()];
    let cluster = ScratchCluster::start(false).expect("PostgreSQL is installed but did not start");
    match &cluster {
        Some(cluster) => locators.push(cluster.url()),
        None => eprintln!("SKIPPED: PostgreSQL is not installed; {name} ran on SQLite only"),
    }
    Stores { locators, dir, _cluster: cluster }
}
