//! One SQL connection over SQLite or PostgreSQL, so that a store's code and
//! its tests are written once and run on both.
//!
//! - Statements use SQLite's numbered placeholders (`?1`, `?2`, …); on
//!   PostgreSQL they become `$1`, `$2`, … (outside quoted text). Both
//!   dialects share everything else a store needs (`RETURNING`,
//!   `ON CONFLICT`, `coalesce`, `octet_length`, …); where they do not, a
//!   store asks [`Conn::backend`]. PostgreSQL infers each placeholder's
//!   type from where it stands; one whose type nothing around it says
//!   (`?1 IS NULL` alone) needs a `CAST(?1 AS BIGINT)`.
//! - Values are [`Value`]s: integers, reals, text, bytes or null. A
//!   PostgreSQL parameter is converted to the type the server infers for it
//!   (an integer into an `INT4` column, for instance), and a PostgreSQL
//!   column is read back into the same five kinds.
//! - [`Conn::write`] runs a closure in a write transaction that excludes
//!   every other writer: SQLite's `BEGIN IMMEDIATE`, and on PostgreSQL a
//!   transaction that first takes one advisory lock shared by all of
//!   versus's writers. Code written against SQLite's one-writer-at-a-time
//!   semantics therefore means the same on PostgreSQL.
//! - [`Conn::migrate`] applies numbered migrations, each written once per
//!   dialect, and refuses a database written by a newer versus.
//!
//! A PostgreSQL connection that breaks (a server restart) is opened again by
//! the next call; the call that saw it break fails, and
//! [`SqlError::is_connection`] says it is worth retrying.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use thiserror::Error;

pub mod scratch;

/// How long a SQLite write waits for another connection's.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The advisory lock every PostgreSQL write transaction takes first.
const WRITE_LOCK: i64 = 0x7665_7273_7573_0001;

/// The database behind a [`Conn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Whether `locator` names a PostgreSQL database (`postgres://…` or
/// `postgresql://…`) rather than a SQLite file.
#[must_use]
pub fn is_postgres(locator: &str) -> bool {
    locator.starts_with("postgres://") || locator.starts_with("postgresql://")
}

/// `locator` fit to print: a URL's password replaced by `***`.
#[must_use]
pub fn redact(locator: &str) -> String {
    let Some((scheme, rest)) = locator.split_once("://") else { return locator.to_owned() };
    let (authority, path) = rest.split_once('/').map_or((rest, None), |(a, p)| (a, Some(p)));
    let redacted = match authority.rsplit_once('@') {
        Some((user, host)) => match user.split_once(':') {
            Some((name, _)) => format!("{name}:***@{host}"),
            None => authority.to_owned(),
        },
        None => authority.to_owned(),
    };
    match path {
        Some(path) => format!("{scheme}://{redacted}/{path}"),
        None => format!("{scheme}://{redacted}"),
    }
}

#[derive(Debug, Error)]
pub enum SqlError {
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    // Not a `source`: the message includes the server's own words.
    #[error("PostgreSQL: {}", postgres_message(.0))]
    Postgres(postgres::Error),
    #[error("column {column}: expected {expected}, found {found}")]
    Type { column: usize, expected: &'static str, found: &'static str },
    #[error("PostgreSQL column {column} has type {name}, which versus does not read")]
    Unsupported { column: usize, name: String },
    #[error("the connection to PostgreSQL broke during a transaction")]
    Broken,
    #[error("expected one row, found none")]
    NoRow,
    #[error("the {table} tables are at version {found}, newer than this versus ({known}): upgrade versus")]
    TooNew { table: String, found: i64, known: i64 },
}

/// The driver's message, with the server's (severity, text, SQLSTATE) when
/// the server answered: the driver alone says only "db error".
fn postgres_message(error: &postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{}: {} ({})", db.severity(), db.message(), db.code().code()),
        None => error.to_string(),
    }
}

impl From<postgres::Error> for SqlError {
    fn from(error: postgres::Error) -> SqlError {
        SqlError::Postgres(error)
    }
}

impl SqlError {
    /// Whether the connection, not the request, failed (the server went
    /// away or is restarting): worth retrying on a new connection.
    #[must_use]
    pub fn is_connection(&self) -> bool {
        match self {
            SqlError::Broken => true,
            SqlError::Postgres(error) => {
                error.is_closed()
                    || match error.code() {
                        // Class 08: connection exception; 57P0x: shutting
                        // down or not yet taking connections.
                        Some(code) => {
                            let code = code.code();
                            code.starts_with("08") || code.starts_with("57P")
                        }
                        // No SQLSTATE: an I/O error on the socket.
                        None => error.as_db_error().is_none(),
                    }
            }
            _ => false,
        }
    }
}

pub type Result<T, E = SqlError> = std::result::Result<T, E>;

/// A value bound to a placeholder or read from a column.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Int(_) => "an integer",
            Value::Real(_) => "a real",
            Value::Text(_) => "text",
            Value::Blob(_) => "bytes",
        }
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value {
                Value::Int(i64::from(v))
            }
        }
    )*};
}
from_int!(i64, i32, u32, u16, u8, bool);

impl From<usize> for Value {
    fn from(v: usize) -> Value {
        Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}
impl From<u64> for Value {
    fn from(v: u64) -> Value {
        Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}
impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}
impl From<&[u8]> for Value {
    fn from(v: &[u8]) -> Value {
        Value::Blob(v.to_vec())
    }
}
impl From<Vec<u8>> for Value {
    fn from(v: Vec<u8>) -> Value {
        Value::Blob(v)
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// The values for a statement's placeholders, in order:
/// `args![name, 3, None::<i64>]`.
#[macro_export]
macro_rules! args {
    ($($value:expr),* $(,)?) => {
        &[$($crate::Value::from($value)),*][..]
    };
}

/// A Rust type a column can be read as.
pub trait FromValue: Sized {
    fn from_value(value: &Value, column: usize) -> Result<Self>;
}

fn mismatch<T>(value: &Value, column: usize, expected: &'static str) -> Result<T> {
    Err(SqlError::Type { column, expected, found: value.kind() })
}

impl FromValue for i64 {
    fn from_value(value: &Value, column: usize) -> Result<i64> {
        match value {
            Value::Int(v) => Ok(*v),
            other => mismatch(other, column, "an integer"),
        }
    }
}
impl FromValue for u64 {
    fn from_value(value: &Value, column: usize) -> Result<u64> {
        match value {
            Value::Int(v) if *v >= 0 => Ok(*v as u64),
            other => mismatch(other, column, "a non-negative integer"),
        }
    }
}
impl FromValue for usize {
    fn from_value(value: &Value, column: usize) -> Result<usize> {
        u64::from_value(value, column).map(|v| v as usize)
    }
}
impl FromValue for u32 {
    fn from_value(value: &Value, column: usize) -> Result<u32> {
        match value {
            Value::Int(v) => u32::try_from(*v).or_else(|_| mismatch(value, column, "a u32")),
            other => mismatch(other, column, "a u32"),
        }
    }
}
impl FromValue for i32 {
    fn from_value(value: &Value, column: usize) -> Result<i32> {
        match value {
            Value::Int(v) => i32::try_from(*v).or_else(|_| mismatch(value, column, "an i32")),
            other => mismatch(other, column, "an i32"),
        }
    }
}
impl FromValue for bool {
    fn from_value(value: &Value, column: usize) -> Result<bool> {
        match value {
            Value::Int(v) => Ok(*v != 0),
            other => mismatch(other, column, "a boolean"),
        }
    }
}
impl FromValue for f64 {
    fn from_value(value: &Value, column: usize) -> Result<f64> {
        match value {
            Value::Real(v) => Ok(*v),
            Value::Int(v) => Ok(*v as f64),
            other => mismatch(other, column, "a real"),
        }
    }
}
impl FromValue for String {
    fn from_value(value: &Value, column: usize) -> Result<String> {
        match value {
            Value::Text(v) => Ok(v.clone()),
            other => mismatch(other, column, "text"),
        }
    }
}
impl FromValue for Vec<u8> {
    fn from_value(value: &Value, column: usize) -> Result<Vec<u8>> {
        match value {
            Value::Blob(v) => Ok(v.clone()),
            other => mismatch(other, column, "bytes"),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value, column: usize) -> Result<Option<T>> {
        match value {
            Value::Null => Ok(None),
            other => T::from_value(other, column).map(Some),
        }
    }
}

/// One row of a result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(Vec<Value>);

impl Row {
    /// Column `column` (from 0) as a `T`.
    pub fn get<T: FromValue>(&self, column: usize) -> Result<T> {
        T::from_value(self.0.get(column).unwrap_or(&Value::Null), column)
    }

    #[must_use]
    pub fn values(&self) -> &[Value] {
        &self.0
    }
}

/// A migration, written once per dialect.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

enum Inner {
    Sqlite(rusqlite::Connection),
    Postgres(Box<Postgres>),
}

struct Postgres {
    config: postgres::Config,
    client: RefCell<Option<postgres::Client>>,
    statements: RefCell<HashMap<String, postgres::Statement>>,
}

/// A connection to a SQLite file or a PostgreSQL database.
pub struct Conn {
    inner: Inner,
    /// Inside [`Conn::write`]: a nested call joins the open transaction.
    in_write: Cell<bool>,
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conn").field("backend", &self.backend()).finish_non_exhaustive()
    }
}

impl Conn {
    /// Opens `locator`: a `postgres://` URL, or the path of a SQLite file
    /// (created if missing).
    pub fn open(locator: &str) -> Result<Conn> {
        if is_postgres(locator) {
            Conn::postgres(locator)
        } else {
            Conn::sqlite(Path::new(locator))
        }
    }

    /// Opens (or creates) the SQLite file at `path`: WAL journal, full
    /// syncs, foreign keys on, writers wait up to 10 s for each other.
    pub fn sqlite(path: &Path) -> Result<Conn> {
        let conn = rusqlite::Connection::open(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        Ok(Conn { inner: Inner::Sqlite(conn), in_write: Cell::new(false) })
    }

    /// Connects to the PostgreSQL database at `url` (no TLS: a local
    /// socket or a trusted network, as for the work queue).
    pub fn postgres(url: &str) -> Result<Conn> {
        let mut config: postgres::Config = url.parse()?;
        if config.get_application_name().is_none() {
            config.application_name("versus");
        }
        config.connect_timeout(Duration::from_secs(10));
        let client = config.connect(postgres::NoTls)?;
        Ok(Conn {
            inner: Inner::Postgres(Box::new(Postgres {
                config,
                client: RefCell::new(Some(client)),
                statements: RefCell::new(HashMap::new()),
            })),
            in_write: Cell::new(false),
        })
    }

    #[must_use]
    pub fn backend(&self) -> Backend {
        match self.inner {
            Inner::Sqlite(_) => Backend::Sqlite,
            Inner::Postgres(_) => Backend::Postgres,
        }
    }

    /// Runs a statement; gives the number of rows it changed.
    pub fn execute(&self, sql: &str, args: &[Value]) -> Result<u64> {
        match &self.inner {
            Inner::Sqlite(conn) => {
                let mut statement = conn.prepare_cached(sql)?;
                Ok(statement.execute(rusqlite::params_from_iter(args.iter()))? as u64)
            }
            Inner::Postgres(_) => self.with_postgres(sql, |client, statement| {
                Ok(client.execute(statement, &pg_args(args))?)
            }),
        }
    }

    /// Runs a query; gives all its rows.
    pub fn query(&self, sql: &str, args: &[Value]) -> Result<Vec<Row>> {
        match &self.inner {
            Inner::Sqlite(conn) => {
                let mut statement = conn.prepare_cached(sql)?;
                let columns = statement.column_count();
                let mut rows = statement.query(rusqlite::params_from_iter(args.iter()))?;
                let mut out = Vec::new();
                while let Some(row) = rows.next()? {
                    let mut values = Vec::with_capacity(columns);
                    for i in 0..columns {
                        values.push(sqlite_value(row.get_ref(i)?));
                    }
                    out.push(Row(values));
                }
                Ok(out)
            }
            Inner::Postgres(_) => self.with_postgres(sql, |client, statement| {
                client.query(statement, &pg_args(args))?.iter().map(pg_row).collect()
            }),
        }
    }

    /// The first row of a query, if any.
    pub fn query_opt(&self, sql: &str, args: &[Value]) -> Result<Option<Row>> {
        Ok(self.query(sql, args)?.into_iter().next())
    }

    /// The first row of a query, which must have one.
    pub fn query_one(&self, sql: &str, args: &[Value]) -> Result<Row> {
        self.query_opt(sql, args)?.ok_or(SqlError::NoRow)
    }

    /// Runs statements separated by `;`, without placeholders.
    pub fn batch(&self, sql: &str) -> Result<()> {
        match &self.inner {
            Inner::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            Inner::Postgres(_) => self.with_client(|client| Ok(client.batch_execute(sql)?)),
        }
    }

    /// Runs `f` in a write transaction that no other writer of this
    /// database overlaps (see the module's notes), committed when `f`
    /// returns `Ok` and rolled back otherwise. A `write` (or
    /// [`Conn::transaction`]) inside `f` joins the same transaction.
    pub fn write<T, E: From<SqlError>>(
        &self,
        f: impl FnOnce(&Conn) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        self.transact(true, f)
    }

    /// Runs `f` in a transaction that, on PostgreSQL, other transactions
    /// may overlap: what it reads and writes is protected only by the row
    /// locks it takes (`SELECT … FOR UPDATE`) and by constraints, as a work
    /// queue whose workers must not wait on each other needs. On SQLite it
    /// is the same as [`Conn::write`] (one writer at a time).
    pub fn transaction<T, E: From<SqlError>>(
        &self,
        f: impl FnOnce(&Conn) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        self.transact(false, f)
    }

    fn transact<T, E: From<SqlError>>(
        &self,
        exclusive: bool,
        f: impl FnOnce(&Conn) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        if self.in_write.get() {
            return f(self);
        }
        match self.backend() {
            Backend::Sqlite => self.batch("BEGIN IMMEDIATE")?,
            Backend::Postgres => {
                self.batch("BEGIN")?;
                if exclusive {
                    if let Err(error) =
                        self.query("SELECT pg_advisory_xact_lock(?1)", args![WRITE_LOCK])
                    {
                        let _ = self.batch("ROLLBACK");
                        return Err(error.into());
                    }
                }
            }
        }
        self.in_write.set(true);
        let result = f(self);
        self.in_write.set(false);
        match result {
            Ok(value) => {
                self.batch("COMMIT")?;
                Ok(value)
            }
            Err(error) => {
                let _ = self.batch("ROLLBACK");
                Err(error)
            }
        }
    }

    /// Brings the tables versioned in `table` (one row: `version`) up to
    /// `migrations.len()`, in one write transaction; gives the version
    /// found before. A database at a newer version is refused.
    pub fn migrate(&self, table: &str, migrations: &[Migration]) -> Result<i64> {
        self.write(|conn| {
            conn.batch(&format!("CREATE TABLE IF NOT EXISTS {table} (version BIGINT NOT NULL)"))?;
            let found = match conn.query_opt(&format!("SELECT version FROM {table}"), &[])? {
                Some(row) => row.get::<i64>(0)?,
                None => {
                    conn.execute(&format!("INSERT INTO {table} (version) VALUES (0)"), &[])?;
                    0
                }
            };
            let known = migrations.len() as i64;
            if found > known {
                return Err(SqlError::TooNew { table: table.to_owned(), found, known });
            }
            for migration in &migrations[found as usize..] {
                conn.batch(match conn.backend() {
                    Backend::Sqlite => migration.sqlite,
                    Backend::Postgres => migration.postgres,
                })?;
            }
            conn.execute(&format!("UPDATE {table} SET version = ?1"), args![known])?;
            Ok(found)
        })
    }

    /// The live PostgreSQL client, reconnecting if the last one broke.
    fn with_client<T>(&self, f: impl FnOnce(&mut postgres::Client) -> Result<T>) -> Result<T> {
        let Inner::Postgres(pg) = &self.inner else { unreachable!("with_client on SQLite") };
        let Postgres { config, client, statements } = &**pg;
        let mut slot = client.borrow_mut();
        if slot.as_ref().is_none_or(postgres::Client::is_closed) {
            if self.in_write.get() {
                // The transaction died with its connection: the rest of it
                // must not run outside it on a new one.
                return Err(SqlError::Broken);
            }
            statements.borrow_mut().clear();
            *slot = Some(config.connect(postgres::NoTls)?);
        }
        let live = slot.as_mut().expect("connected above");
        f(live)
    }

    /// Runs `f` with a prepared (and cached) statement for `sql`.
    fn with_postgres<T>(
        &self,
        sql: &str,
        f: impl FnOnce(&mut postgres::Client, &postgres::Statement) -> Result<T>,
    ) -> Result<T> {
        let Inner::Postgres(pg) = &self.inner else { unreachable!("with_postgres on SQLite") };
        let statements = &pg.statements;
        self.with_client(|client| {
            let cached = statements.borrow().get(sql).cloned();
            let statement = match cached {
                Some(statement) => statement,
                None => {
                    let statement = client.prepare(&dollar_placeholders(sql))?;
                    statements.borrow_mut().insert(sql.to_owned(), statement.clone());
                    statement
                }
            };
            f(client, &statement)
        })
    }
}

/// `?N` → `$N` outside quoted text and identifiers.
fn dollar_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                if c == q {
                    quote = None;
                }
                out.push(c);
            }
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    out.push(c);
                }
                '?' if chars.peek().is_some_and(char::is_ascii_digit) => out.push('$'),
                _ => out.push(c),
            },
        }
    }
    out
}

fn sqlite_value(value: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef;
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(v) => Value::Int(v),
        ValueRef::Real(v) => Value::Real(v),
        ValueRef::Text(v) => Value::Text(String::from_utf8_lossy(v).into_owned()),
        ValueRef::Blob(v) => Value::Blob(v.to_vec()),
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(v) => ValueRef::Integer(*v),
            Value::Real(v) => ValueRef::Real(*v),
            Value::Text(v) => ValueRef::Text(v.as_bytes()),
            Value::Blob(v) => ValueRef::Blob(v),
        }))
    }
}

fn pg_args(args: &[Value]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    args.iter().map(|v| v as &(dyn postgres::types::ToSql + Sync)).collect()
}

impl postgres::types::ToSql for Value {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>>
    {
        use postgres::types::{IsNull, Type};
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) => match *ty {
                Type::INT8 => v.to_sql(ty, out),
                Type::INT4 => i32::try_from(*v)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*v)?.to_sql(ty, out),
                Type::BOOL => (*v != 0).to_sql(ty, out),
                Type::FLOAT8 => (*v as f64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => v.to_string().to_sql(ty, out),
                _ => Err(format!("an integer cannot be a {ty}").into()),
            },
            Value::Real(v) => match *ty {
                Type::FLOAT8 => v.to_sql(ty, out),
                Type::FLOAT4 => (*v as f32).to_sql(ty, out),
                _ => Err(format!("a real cannot be a {ty}").into()),
            },
            Value::Text(v) => v.as_str().to_sql(ty, out),
            Value::Blob(v) => v.as_slice().to_sql(ty, out),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

fn pg_row(row: &postgres::Row) -> Result<Row> {
    use postgres::types::Type;
    let mut values = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = match *ty {
            Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Value::Int),
            Type::INT4 => row.try_get::<_, Option<i32>>(i)?.map(|v| Value::Int(v.into())),
            Type::INT2 => row.try_get::<_, Option<i16>>(i)?.map(|v| Value::Int(v.into())),
            Type::BOOL => row.try_get::<_, Option<bool>>(i)?.map(|v| Value::Int(v.into())),
            Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map(Value::Real),
            Type::FLOAT4 => row.try_get::<_, Option<f32>>(i)?.map(|v| Value::Real(v.into())),
            Type::TEXT | Type::VARCHAR | Type::NAME | Type::BPCHAR => {
                row.try_get::<_, Option<String>>(i)?.map(Value::Text)
            }
            Type::BYTEA => row.try_get::<_, Option<Vec<u8>>>(i)?.map(Value::Blob),
            Type::VOID => None,
            _ => return Err(SqlError::Unsupported { column: i, name: ty.name().to_owned() }),
        };
        values.push(value.unwrap_or(Value::Null));
    }
    Ok(Row(values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_not_printed() {
        assert_eq!(
            redact("postgres://ann:s3cret@db.example/versus"),
            "postgres://ann:***@db.example/versus"
        );
        assert_eq!(redact("postgres://ann@db/versus"), "postgres://ann@db/versus");
        assert_eq!(redact("postgresql://a:b@h"), "postgresql://a:***@h");
        assert_eq!(redact("/var/db.sqlite"), "/var/db.sqlite");
    }

    #[test]
    fn placeholders_become_dollars_outside_quotes_only() {
        assert_eq!(
            dollar_placeholders("SELECT a FROM t WHERE b = ?1 AND c = '?2' AND \"d?3\" = ?12"),
            "SELECT a FROM t WHERE b = $1 AND c = '?2' AND \"d?3\" = $12"
        );
        assert_eq!(dollar_placeholders("SELECT '?' || ?"), "SELECT '?' || ?");
    }
}
