//! Where `pgn convert -o` and `validate --html` write: never onto an input, and never a
//! partial file in place of a finished one.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::live;

/// Refuses `dest` when it is one of the inputs (through symlinks and hard links: the
/// same device and inode), standard input included: writing it would destroy what is
/// read. A destination that does not exist yet is no input. `flag` names the option
/// that gave it (none when empty).
pub fn refuse_input(flag: &str, dest: &Path, inputs: &[std::path::PathBuf]) -> Result<()> {
    let Some(out) = identity(std::fs::metadata(dest).ok()) else {
        return Ok(());
    };
    for input in inputs {
        let same = if input == Path::new("-") {
            stdin_identity() == Some(out)
        } else {
            pocketfen::run::split_files::same_file(input, dest)
        };
        if same {
            let what = if input == Path::new("-") {
                "standard input".to_owned()
            } else {
                format!("the input {}", input.display())
            };
            let flag = if flag.is_empty() {
                String::new()
            } else {
                format!("{flag} ")
            };
            return Err(anyhow::anyhow!(
                "{flag}{}: this is {what}; writing it would destroy what is read: write elsewhere",
                dest.display()
            ));
        }
    }
    Ok(())
}

/// A file's device and inode (none off Unix, where the check is by path only).
fn identity(meta: Option<std::fs::Metadata>) -> Option<(u64, u64)> {
    let meta = meta?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// Standard input's device and inode, when it is a file.
fn stdin_identity() -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
        identity(File::from(fd).metadata().ok())
    }
    #[cfg(not(unix))]
    None
}

/// Where `pgn convert` writes: stdout; a FIFO, a device or a symlink written through, as
/// `>` would (a symlink stays a symlink); or, for a regular file or a new one, a temporary
/// file beside it, created unpredictably and exclusively, renamed over it at the end (so
/// an interrupted or failed run leaves no partial output). A file that can be written in
/// a directory that cannot is written in place, as `>` would.
pub fn open_output(
    path: Option<&Path>,
) -> Result<(Box<dyn Write>, Option<tempfile::NamedTempFile>)> {
    // `-o -` is stdout, as `-` is stdin among the inputs.
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        return Ok((Box::new(io::stdout().lock()), None));
    };
    let in_place = || -> Result<(Box<dyn Write>, Option<tempfile::NamedTempFile>)> {
        let file = File::create(path).with_context(|| format!("opening {}", path.display()))?;
        Ok((Box::new(file), None))
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            anyhow::bail!("{}: is a directory", path.display())
        }
        Ok(meta) if !meta.is_file() => return in_place(),
        _ => {}
    }
    // The handler is in place before the file exists, and waits on the lock held here
    // until it knows the file: a second interrupt at any moment leaves nothing behind.
    live::catch_signals();
    let mut partial = live::partial_lock();
    let (dir, made) = new_temp_beside(path);
    let temp = match made {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied && path.is_file() => {
            drop(partial);
            return in_place();
        }
        Err(e) => {
            return Err(e)
                .with_context(|| format!("creating a temporary file in {}", dir.display()));
        }
    };
    if let Some(partial) = partial.as_deref_mut() {
        *partial = Some(temp.path().to_owned());
    }
    drop(partial);
    let file = temp
        .reopen()
        .with_context(|| format!("opening {}", temp.path().display()))?;
    Ok((Box::new(file), Some(temp)))
}

/// A new temporary file beside `path` (and the folder it is in): `.NAME.XXXXXX.pocketfen.tmp`,
/// created unpredictably and exclusively, with the permissions `>` would give a new
/// file (0666 less the umask), not a temporary file's 0600.
pub fn new_temp_beside(path: &Path) -> (PathBuf, io::Result<tempfile::NamedTempFile>) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_owned(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".pocketfen.tmp");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let made = builder.tempfile_in(&dir);
    (dir, made)
}

/// Renames a finished temporary file to its destination, which keeps its permissions.
pub fn persist(temp: tempfile::NamedTempFile, path: &Path) -> Result<()> {
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(temp.path(), meta.permissions());
    }
    live::set_partial(None);
    temp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// The files of `pgn split`: temporary files beside their destinations (never an
/// input), known to the signal handler (a second interrupt removes them), renamed with
/// the destination's permissions.
pub struct SplitOutputs {
    pub inputs: Vec<PathBuf>,
}

impl pocketfen::run::split_files::Outputs for SplitOutputs {
    fn create(&mut self, dest: &Path) -> io::Result<(File, PathBuf)> {
        // (No flag named: the files of `pgn split`, `export --games`, `--plies` and `-o`
        // come this way.)
        refuse_input("", dest, &self.inputs).map_err(|e| io::Error::other(format!("{e:#}")))?;
        live::catch_signals();
        let mut partials = live::partials_lock();
        let (dir, made) = new_temp_beside(dest);
        let temp = made.map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("creating a temporary file in {}: {e}", dir.display()),
            )
        })?;
        let (file, path) = temp.keep().map_err(|e| e.error)?;
        if let Some(partials) = partials.as_deref_mut() {
            partials.push(path.clone());
        }
        Ok((file, path))
    }

    fn persist(&mut self, temp: &Path, dest: &Path) -> io::Result<()> {
        let renamed = pocketfen::run::split_files::rename_over(temp, dest);
        forget_partial(temp);
        renamed
    }

    fn discard(&mut self, temp: &Path) {
        let _ = std::fs::remove_file(temp);
        forget_partial(temp);
    }
}

/// Takes `temp` out of the files a second interrupt removes.
fn forget_partial(temp: &Path) {
    if let Some(mut partials) = live::partials_lock() {
        partials.retain(|p| p != temp);
    }
}
