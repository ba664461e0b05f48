//! The files of an export: the games table in one file or a file per partition
//! (Lichess's `year=YYYY/month=MM/train-00000-of-00001.parquet`), the plies table in
//! one file; each written through a temporary file beside it ([`Outputs`]) and renamed
//! over its destination at the end, or removed.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

use parquet::errors::ParquetError;

use super::build::GamesBuilder;
use super::plies::PliesFile;
use super::write::{Codec, Partition, Rows, TableWriter, WriteOptions};
use crate::run::record::ExportedRecord;
use crate::run::split_files::Outputs;
use crate::stream::Split;

/// The bytes the open partitions may hold before the largest ends its row group.
/// The games table's writer into its file.
type GamesFile = TableWriter<GamesBuilder, BufWriter<File>>;

const PARTITIONS_BUFFERED: usize = 96 << 20;

/// A file of an export that could not be written, and why.
#[derive(Debug)]
pub struct TableError {
    /// The file.
    pub path: PathBuf,
    /// Why.
    pub error: ParquetError,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "writing {}: ", self.path.display())?;
        match &self.error {
            // Not `External: …`: the error itself (a file's, an input's refusal).
            ParquetError::External(e) => write!(f, "{e}"),
            e => write!(f, "{e}"),
        }
    }
}

// The message holds the error's own: it has no source, which a chain would say again.
impl std::error::Error for TableError {}

fn failed(path: &Path, error: impl Into<ParquetError>) -> TableError {
    TableError {
        path: path.to_owned(),
        error: error.into(),
    }
}

fn io_failed(path: &Path, e: io::Error) -> TableError {
    failed(path, ParquetError::External(Box::new(e)))
}

/// One table written through a temporary file beside its destination.
/// A table's writer into its file: Arrow's (the games table) or the plies table's own.
trait Sink: Sized {
    fn push(&mut self, record: &ExportedRecord) -> Result<(), ParquetError>;
    /// Adds a record handed over (the last table of a game takes it).
    fn push_owned(&mut self, record: ExportedRecord) -> Result<(), ParquetError> {
        self.push(&record)
    }
    fn finish(self) -> Result<BufWriter<File>, ParquetError>;
}

impl<R: Rows> Sink for TableWriter<R, BufWriter<File>> {
    fn push(&mut self, record: &ExportedRecord) -> Result<(), ParquetError> {
        TableWriter::push(self, record)
    }
    fn finish(self) -> Result<BufWriter<File>, ParquetError> {
        TableWriter::finish(self)
    }
}

impl Sink for PliesFile<BufWriter<File>> {
    fn push(&mut self, record: &ExportedRecord) -> Result<(), ParquetError> {
        PliesFile::push(self, record)
    }
    fn push_owned(&mut self, record: ExportedRecord) -> Result<(), ParquetError> {
        PliesFile::push_owned(self, record)
    }
    fn finish(self) -> Result<BufWriter<File>, ParquetError> {
        PliesFile::finish(self)
    }
}

struct TableFile<S: Sink> {
    dest: PathBuf,
    temp: PathBuf,
    writer: S,
    /// A write failed: the file may lack rows before the last ones (a row group whose
    /// encoding failed), so it is never kept.
    broken: bool,
}

impl<S: Sink> TableFile<S> {
    fn open(
        outputs: &mut dyn Outputs,
        dest: &Path,
        make: impl FnOnce(BufWriter<File>) -> Result<S, ParquetError>,
    ) -> Result<Self, TableError> {
        let (file, temp) = outputs.create(dest).map_err(|e| io_failed(dest, e))?;
        match make(BufWriter::with_capacity(1 << 16, file)) {
            Ok(writer) => Ok(TableFile {
                dest: dest.to_owned(),
                temp,
                writer,
                broken: false,
            }),
            Err(e) => {
                outputs.discard(&temp);
                Err(failed(dest, e))
            }
        }
    }

    fn push(&mut self, record: &ExportedRecord) -> Result<(), TableError> {
        let pushed = self.writer.push(record);
        self.checked(pushed)
    }

    fn push_owned(&mut self, record: ExportedRecord) -> Result<(), TableError> {
        let pushed = self.writer.push_owned(record);
        self.checked(pushed)
    }

    /// A write's result, the file marked broken when it failed.
    fn checked(&mut self, result: Result<(), ParquetError>) -> Result<(), TableError> {
        self.broken |= result.is_err();
        result.map_err(|e| failed(&self.dest, e))
    }

    /// Ends the file and renames it over its destination when `keep`, else removes it
    /// (a broken one too, with an error).
    fn finish(self, outputs: &mut dyn Outputs, keep: bool) -> Result<(), TableError> {
        if !keep || self.broken {
            drop(self.writer);
            outputs.discard(&self.temp);
            if self.broken && keep {
                return Err(failed(
                    &self.dest,
                    ParquetError::General(
                        "not written: an earlier error left rows out of it".to_owned(),
                    ),
                ));
            }
            return Ok(());
        }
        let dest = self.dest;
        let written = self
            .writer
            .finish()
            .map_err(|e| failed(&dest, e))
            .and_then(|w| w.into_inner().map_err(|e| io_failed(&dest, e.into_error())))
            .and_then(|f| f.sync_data().map_err(|e| io_failed(&dest, e)));
        if let Err(e) = written {
            outputs.discard(&self.temp);
            return Err(e);
        }
        outputs
            .persist(&self.temp, &dest)
            .map_err(|e| io_failed(&dest, e))
    }
}

/// What an export writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportTargets {
    /// The games table's file.
    pub games: Option<PathBuf>,
    /// The games table's folder, a file per partition (Lichess's layout).
    pub games_dir: Option<PathBuf>,
    /// How the folder's files divide the games.
    pub partition: Option<Partition>,
    /// The plies table's file.
    pub plies: Option<PathBuf>,
    /// The plies table has the FEN after each ply.
    pub fen: bool,
    /// How every file's pages are compressed (`None`: zstd, level 1).
    pub codec: Option<Codec>,
    /// The part of a split run being exported: the partitions' files are named for it
    /// (`train-00002-of-00004.parquet` for part 3 of 4).
    pub split: Option<Split>,
    /// Threads that encode and compress the row groups of each of the `games` and
    /// `plies` files beside the run, so twice as many with both (0: the thread that
    /// pushes the rows does; [`ExportTargets::encoders_for`] gives a run's; the files of
    /// `games_dir` are encoded by that thread). The files are the same for any number.
    pub encoders: usize,
}

impl ExportTargets {
    /// Whether the plies table is written.
    pub fn plies(&self) -> bool {
        self.plies.is_some()
    }

    /// A games table is written (to a file or by partition).
    pub fn games(&self) -> bool {
        self.games.is_some() || self.games_dir.is_some()
    }

    /// The encoders of a run with `workers` threads: none for one (its CPU time stays
    /// one thread's), else half as many as the workers, at most eight (each holds a row
    /// group's compressed pages, tens of MB).
    ///
    /// ```
    /// use pocketfen::table::ExportTargets;
    /// assert_eq!(ExportTargets::encoders_for(1), 0);
    /// assert_eq!(ExportTargets::encoders_for(2), 1);
    /// assert_eq!(ExportTargets::encoders_for(8), 4);
    /// assert_eq!(ExportTargets::encoders_for(64), 8);
    /// ```
    pub fn encoders_for(workers: usize) -> usize {
        if workers <= 1 {
            0
        } else {
            (workers / 2).clamp(1, 8)
        }
    }
}

/// The files of an export, open: each game's rows go to every table asked for.
pub struct ExportFiles {
    outputs: Box<dyn Outputs>,
    games: Option<TableFile<GamesFile>>,
    plies: Option<TableFile<PliesFile<BufWriter<File>>>>,
    dir: Option<PathBuf>,
    partition: Partition,
    codec: Codec,
    name: String,
    parts: BTreeMap<String, TableFile<GamesFile>>,
    pushed: usize,
}

impl fmt::Debug for ExportFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExportFiles")
            .field("games", &self.games.as_ref().map(|t| &t.dest))
            .field("plies", &self.plies.as_ref().map(|t| &t.dest))
            .field("dir", &self.dir)
            .field("parts", &self.parts.len())
            .finish_non_exhaustive()
    }
}

impl ExportFiles {
    /// Opens the files `targets` name (the partitions' as their first games come),
    /// through `outputs`.
    ///
    /// # Errors
    ///
    /// A file that cannot be made (or must not be: an input).
    pub fn open(
        mut outputs: Box<dyn Outputs>,
        targets: &ExportTargets,
    ) -> Result<ExportFiles, TableError> {
        let codec = targets.codec.unwrap_or(WriteOptions::GAMES.codec);
        let games = match &targets.games {
            Some(p) => Some(TableFile::open(&mut *outputs, p, |out| {
                let opts = WriteOptions {
                    codec,
                    encoders: targets.encoders,
                    ..WriteOptions::GAMES
                };
                TableWriter::new(GamesBuilder::new(), out, opts)
            })?),
            None => None,
        };
        let plies = match &targets.plies {
            Some(p) => match TableFile::open(&mut *outputs, p, |out| {
                let opts = WriteOptions {
                    codec,
                    encoders: targets.encoders,
                    ..WriteOptions::PLIES
                };
                PliesFile::new(out, targets.fen, opts)
            }) {
                Ok(t) => Some(t),
                Err(e) => {
                    if let Some(g) = games {
                        let _ = g.finish(&mut *outputs, false);
                    }
                    return Err(e);
                }
            },
            None => None,
        };
        let name = match targets.split {
            Some(s) => format!("train-{:05}-of-{:05}.parquet", s.part - 1, s.of),
            None => "train-00000-of-00001.parquet".to_owned(),
        };
        Ok(ExportFiles {
            outputs,
            games,
            plies,
            dir: targets.games_dir.clone(),
            partition: targets.partition.unwrap_or(Partition::YearMonth),
            codec,
            name,
            parts: BTreeMap::new(),
            pushed: 0,
        })
    }

    /// Adds a game's rows to every table (the plies table, last, takes the record: with
    /// encoders, to the thread that encodes its row group).
    ///
    /// # Errors
    ///
    /// A file that cannot be written.
    pub fn push(&mut self, record: ExportedRecord) -> Result<(), TableError> {
        if let Some(t) = &mut self.games {
            t.push(&record)?;
        }
        if self.dir.is_some() {
            self.push_part(&record)?;
        }
        if let Some(t) = &mut self.plies {
            t.push_owned(record)?;
        }
        Ok(())
    }

    fn push_part(&mut self, record: &ExportedRecord) -> Result<(), TableError> {
        let Some(dir) = &self.dir else {
            return Ok(());
        };
        let folder = self.partition.folder(&record.row);
        if !self.parts.contains_key(&folder) {
            let dir = dir.join(&folder);
            std::fs::create_dir_all(&dir).map_err(|e| io_failed(&dir, e))?;
            let opts = WriteOptions {
                batch_bytes: 4 << 20,
                codec: self.codec,
                ..WriteOptions::GAMES
            };
            let dest = dir.join(&self.name);
            let table = TableFile::open(&mut *self.outputs, &dest, |out| {
                TableWriter::new(GamesBuilder::new(), out, opts)
            })?;
            self.parts.insert(folder.clone(), table);
        }
        if let Some(table) = self.parts.get_mut(&folder) {
            table.push(record)?;
        }
        self.pushed += 1;
        // Months interleaved: the row groups in progress stay bounded.
        if self.parts.len() > 1 && self.pushed.is_multiple_of(256) {
            let held: usize = self.parts.values().map(|t| t.writer.buffered()).sum();
            if held > PARTITIONS_BUFFERED
                && let Some(t) = self.parts.values_mut().max_by_key(|t| t.writer.buffered())
            {
                let ended = t.writer.end_row_group();
                t.checked(ended)?;
            }
        }
        Ok(())
    }

    /// The files written so far, or to be (the partitions' as they came).
    pub fn paths(&self) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = self.games.iter().map(|t| t.dest.clone()).collect();
        paths.extend(self.parts.values().map(|t| t.dest.clone()));
        paths.extend(self.plies.iter().map(|t| t.dest.clone()));
        paths
    }

    /// Ends every file and, when `keep`, renames each over its destination; else
    /// removes them all. After a file that fails, those not yet renamed are removed.
    ///
    /// # Errors
    ///
    /// The first file that could not be ended or renamed.
    pub fn finish(mut self, keep: bool) -> Result<(), TableError> {
        let mut result = Ok(());
        let outputs = &mut *self.outputs;
        let games = self.games.into_iter().chain(self.parts.into_values());
        for t in games {
            let r = t.finish(outputs, keep && result.is_ok());
            result = result.and(r);
        }
        if let Some(t) = self.plies {
            let r = t.finish(outputs, keep && result.is_ok());
            result = result.and(r);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::split_files::TempFiles;

    /// A game's record, its rows empty.
    fn record() -> ExportedRecord {
        ExportedRecord {
            file: "g.pgn".into(),
            game: 1,
            line: 1,
            row: crate::game::GameRow::default(),
            plies: Vec::new(),
            fens: Default::default(),
            too_large: None,
        }
    }

    /// A writer whose second write fails (as a row group whose encoding failed does).
    struct FailsOnce {
        pushed: usize,
        out: BufWriter<File>,
    }

    impl Sink for FailsOnce {
        fn push(&mut self, _: &ExportedRecord) -> Result<(), ParquetError> {
            self.pushed += 1;
            if self.pushed == 2 {
                return Err(ParquetError::General("encoding failed".to_owned()));
            }
            Ok(())
        }
        fn finish(self) -> Result<BufWriter<File>, ParquetError> {
            Ok(self.out)
        }
    }

    /// A file a write failed on is removed when the files end, never renamed over its
    /// destination (its later rows may have been written without those that failed),
    /// with an error that says so; one without a failure is kept.
    #[test]
    fn a_file_a_write_failed_on_is_never_kept() {
        let dir = std::env::temp_dir().join(format!("pocketfen-broken-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let mut outputs = TempFiles::new(Vec::new());
        for fail in [false, true] {
            let dest = dir.join(format!("t-{fail}.parquet"));
            let mut table = TableFile::open(&mut outputs, &dest, |out| {
                Ok(FailsOnce {
                    pushed: if fail { 0 } else { 2 },
                    out,
                })
            })
            .expect("opened");
            let record = record();
            assert!(table.push(&record).is_ok());
            let second = table.push(&record);
            assert_eq!(second.is_err(), fail);
            let ended = table.finish(&mut outputs, true);
            assert_eq!(ended.is_err(), fail, "{ended:?}");
            assert_eq!(dest.exists(), !fail);
            if let Err(e) = ended {
                assert!(e.to_string().contains("left rows out"), "{e}");
            }
        }
        // A run that stopped (nothing kept) removes a broken file as it removes the
        // others: no error of its own.
        let dest = dir.join("stopped.parquet");
        let mut table =
            TableFile::open(&mut outputs, &dest, |out| Ok(FailsOnce { pushed: 1, out }))
                .expect("opened");
        let record = record();
        assert!(table.push(&record).is_err());
        assert!(table.finish(&mut outputs, false).is_ok());
        assert!(!dest.exists());
        let left: Vec<_> = std::fs::read_dir(&dir)
            .expect("the folder")
            .map(|e| e.expect("an entry").file_name())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
