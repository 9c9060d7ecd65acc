//! The layer's promises, checked on a SQLite file and on a throw-away
//! PostgreSQL cluster: the same statements, the same answers.

use std::sync::Arc;
use std::thread;

use versus_sql::scratch::ScratchCluster;
use versus_sql::{args, Backend, Conn, Migration, SqlError, Value};

/// The databases each test runs on: a fresh SQLite file, and a fresh
/// PostgreSQL database when the server is installed (else a visible skip).
fn databases(name: &str) -> (Vec<String>, Option<ScratchCluster>, tempdir::Dir) {
    let dir = tempdir::Dir::new(name);
    let mut out = vec![dir.path.join("db.sqlite").display().to_string()];
    let cluster = ScratchCluster::start(false).expect("PostgreSQL is installed but will not start");
    match &cluster {
        Some(cluster) => out.push(cluster.url()),
        None => eprintln!("SKIPPED: PostgreSQL is not installed; {name} ran on SQLite only"),
    }
    (out, cluster, dir)
}

mod tempdir {
    pub struct Dir {
        pub path: std::path::PathBuf,
    }
    impl Dir {
        pub fn new(name: &str) -> Dir {
            let path =
                std::env::temp_dir().join(format!("versus-sql-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            Dir { path }
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

const TABLES: &[Migration] = &[
    Migration {
        sqlite: "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, x REAL, s TEXT, b BLOB)",
        postgres: "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, n BIGINT, x DOUBLE PRECISION, \
                   s TEXT, b BYTEA)",
    },
    Migration {
        sqlite: "CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
                 INSERT INTO counter VALUES (1, 0)",
        postgres: "CREATE TABLE counter (id BIGINT PRIMARY KEY, n INTEGER NOT NULL);
                   INSERT INTO counter VALUES (1, 0)",
    },
];

#[test]
fn values_come_back_as_they_went_in() {
    let (dbs, _cluster, _dir) = databases("values");
    for db in &dbs {
        let conn = Conn::open(db).unwrap();
        assert_eq!(conn.migrate("t_schema", TABLES).unwrap(), 0);
        let blob: &[u8] = &[0, 255, 10, 13];
        let id: i64 = conn
            .query_one(
                "INSERT INTO t (n, x, s, b) VALUES (?1, ?2, ?3, ?4) RETURNING id",
                args![-5_000_000_000_i64, 0.25, "héllo '?1'", blob],
            )
            .unwrap()
            .get(0)
            .unwrap();
        conn.execute("INSERT INTO t (n) VALUES (?1)", args![None::<i64>]).unwrap();
        let row = conn
            .query_one("SELECT n, x, s, b, octet_length(s) FROM t WHERE id = ?1", args![id])
            .unwrap();
        assert_eq!(row.get::<i64>(0).unwrap(), -5_000_000_000, "{db}");
        assert_eq!(row.get::<f64>(1).unwrap(), 0.25);
        assert_eq!(row.get::<String>(2).unwrap(), "héllo '?1'");
        assert_eq!(row.get::<Vec<u8>>(3).unwrap(), blob);
        assert_eq!(row.get::<i64>(4).unwrap(), 11, "bytes, not characters");
        // A count, a null (a placeholder whose type nothing around it
        // says needs a CAST for PostgreSQL).
        let rows = conn
            .query(
                "SELECT count(*), CAST(?1 AS BIGINT) IS NULL FROM t WHERE n IS NULL OR n = ?2",
                args![None::<i64>, -5_000_000_000_i64],
            )
            .unwrap();
        assert_eq!(rows[0].values(), &[Value::Int(2), Value::Int(1)], "{db}");
        // Wrong kinds are errors, not panics.
        assert!(matches!(row.get::<i64>(2), Err(SqlError::Type { column: 2, .. })));
        // An integer into an INT4 column (PostgreSQL infers the type).
        conn.execute("UPDATE counter SET n = ?1", args![7]).unwrap();
        assert_eq!(conn.query_one("SELECT n FROM counter", &[]).unwrap().get::<i64>(0).unwrap(), 7);
    }
}

#[test]
fn a_failed_write_leaves_nothing_and_migrations_refuse_newer_databases() {
    let (dbs, _cluster, _dir) = databases("rollback");
    for db in &dbs {
        let conn = Conn::open(db).unwrap();
        conn.migrate("t_schema", TABLES).unwrap();
        assert_eq!(conn.migrate("t_schema", TABLES).unwrap(), 2, "applied once");
        let failed: Result<(), SqlError> = conn.write(|c| {
            c.execute("INSERT INTO t (n) VALUES (1)", &[])?;
            c.execute("INSERT INTO nowhere (n) VALUES (1)", &[])?;
            Ok(())
        });
        assert!(failed.is_err());
        let count: i64 = conn.query_one("SELECT count(*) FROM t", &[]).unwrap().get(0).unwrap();
        assert_eq!(count, 0, "{db}: the first insert was rolled back");
        // A nested write joins the outer one.
        conn.write(|c| {
            c.execute("INSERT INTO t (n) VALUES (1)", &[])?;
            c.write(|c| c.execute("INSERT INTO t (n) VALUES (2)", &[]))?;
            Ok::<_, SqlError>(())
        })
        .unwrap();
        let count: i64 = conn.query_one("SELECT count(*) FROM t", &[]).unwrap().get(0).unwrap();
        assert_eq!(count, 2);
        let newer = Conn::open(db).unwrap();
        newer.execute("UPDATE t_schema SET version = 9", &[]).unwrap();
        match Conn::open(db).unwrap().migrate("t_schema", TABLES) {
            Err(SqlError::TooNew { found: 9, known: 2, .. }) => {}
            other => panic!("{db}: {other:?}"),
        }
    }
}

/// Read, then write what was read plus one: without exclusion between
/// writers, PostgreSQL's default isolation would lose updates.
#[test]
fn writers_never_overlap() {
    let (dbs, _cluster, _dir) = databases("writers");
    for db in &dbs {
        Conn::open(db).unwrap().migrate("t_schema", TABLES).unwrap();
        let db = Arc::new(db.clone());
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let db = Arc::clone(&db);
                thread::spawn(move || {
                    let conn = Conn::open(&db).unwrap();
                    for _ in 0..50 {
                        conn.write(|c| {
                            let n: i64 =
                                c.query_one("SELECT n FROM counter WHERE id = 1", &[])?.get(0)?;
                            thread::yield_now();
                            c.execute("UPDATE counter SET n = ?1 WHERE id = 1", args![n + 1])
                        })
                        .unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let conn = Conn::open(&db).unwrap();
        let n: i64 = conn.query_one("SELECT n FROM counter", &[]).unwrap().get(0).unwrap();
        assert_eq!(n, 200, "{db}");
    }
}

#[test]
fn a_connection_survives_a_server_restart() {
    let Some(cluster) = ScratchCluster::start(false).unwrap() else {
        eprintln!("SKIPPED: PostgreSQL is not installed");
        return;
    };
    let conn = Conn::open(&cluster.url()).unwrap();
    assert_eq!(conn.backend(), Backend::Postgres);
    conn.migrate("t_schema", TABLES).unwrap();
    conn.execute("INSERT INTO t (n) VALUES (1)", &[]).unwrap();
    cluster.stop_server().unwrap();
    let during = conn.query("SELECT n FROM t", &[]);
    assert!(during.as_ref().is_err_and(SqlError::is_connection), "{during:?}");
    cluster.start_server().unwrap();
    let rows = conn.query("SELECT n FROM t", &[]).unwrap();
    assert_eq!(rows.len(), 1, "the next call reconnects");
}

#[test]
fn a_sqlite_path_and_a_bad_url_are_told_apart() {
    assert!(versus_sql::is_postgres("postgres://u@h/db"));
    assert!(versus_sql::is_postgres("postgresql://u@h/db"));
    assert!(!versus_sql::is_postgres("postgres.sqlite"));
    let error = Conn::open("postgres://nobody@%2Fnonexistent-socket-dir/x").unwrap_err();
    assert!(error.is_connection() || matches!(error, SqlError::Postgres(_)), "{error}");
}
