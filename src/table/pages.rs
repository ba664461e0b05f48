//! Parquet column chunks encoded here rather than through Arrow's writer: the plies
//! table knows its dictionary indices from the moves themselves (a move's SAN, a clock's
//! bits, a pocket's counts), so that a value is looked up by a number instead of being
//! gathered in an Arrow builder and hashed as bytes (docs/PERFORMANCE.md, issue 35).
//!
//! A [`Column`] gathers one column's values a page at a time: as indices into a
//! dictionary that grows with the row group ([`Column::extend`], [`Column::push_n`]) or as
//! plain values ([`Column::plain`]), with definition and repetition levels where the
//! schema has them. [`Column::end_page`] encodes and compresses the page (version 1:
//! levels and values in the RLE / bit-packing hybrid of `hybrid.rs`, or plain); [`Column::end_chunk`]
//! puts the dictionary page in front and hands the chunk, with its metadata and
//! statistics, to the file's row group.

use bytes::Bytes;
use parquet::basic::{Compression, Encoding, Type};
use parquet::column::page::{CompressedPage, Page, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::errors::ParquetError;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::file::statistics::Statistics;
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;

use super::hybrid::{bit_width, hybrid, levels, pack_bools};
use super::write::Codec;

/// A page compressor, kept for the pages of a file.
pub(super) enum Compressor {
    Zstd(zstd::bulk::Compressor<'static>),
    Snappy(Box<snap::raw::Encoder>),
    None,
}

impl std::fmt::Debug for Compressor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Compressor::Zstd(_) => "Zstd",
            Compressor::Snappy(_) => "Snappy",
            Compressor::None => "None",
        })
    }
}

fn external(e: impl std::error::Error + Send + Sync + 'static) -> ParquetError {
    ParquetError::External(Box::new(e))
}

impl Compressor {
    pub(super) fn new(codec: Codec) -> Result<Compressor, ParquetError> {
        Ok(match codec {
            Codec::Zstd(level) => {
                Compressor::Zstd(zstd::bulk::Compressor::new(level).map_err(external)?)
            }
            Codec::Snappy => Compressor::Snappy(Box::new(snap::raw::Encoder::new())),
            Codec::None => Compressor::None,
        })
    }

    /// `data` compressed (or as it is, without a codec).
    fn compress(&mut self, data: Vec<u8>) -> Result<Vec<u8>, ParquetError> {
        match self {
            Compressor::Zstd(z) => z.compress(&data).map_err(external),
            Compressor::Snappy(s) => {
                let mut out = vec![0; snap::raw::max_compress_len(data.len())];
                let n = s.compress(&data, &mut out).map_err(external)?;
                out.truncate(n);
                Ok(out)
            }
            Compressor::None => Ok(data),
        }
    }
}

/// Parquet's codec of a [`Codec`] (a zstd level is the writer's business).
fn compression(codec: Codec) -> Compression {
    match codec {
        Codec::Zstd(_) => Compression::ZSTD(Default::default()),
        Codec::Snappy => Compression::SNAPPY,
        Codec::None => Compression::UNCOMPRESSED,
    }
}

/// Dictionary indices of keys: directly for a key below [`Keys::DIRECT`] (a ply, a
/// role, a pocket's few pieces), else in an open-addressed table whose slot holds a key
/// (0, never a hashed key, marks a free one) and its index side by side, so that a key
/// found in its first slot costs one memory access, and whose slot is taken from the top
/// bits of the key's multiplicative hash.
#[derive(Debug, Default)]
struct Keys {
    direct: Vec<u32>,
    slots: Vec<Slot>,
    used: usize,
    /// 64 less the table's size in bits.
    shift: u32,
}

/// A slot of [`Keys`]' table.
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: u64,
    index: u32,
}

const EMPTY: u32 = u32::MAX;

impl Keys {
    const DIRECT: u64 = 1024;

    /// The slot where the search for `key` starts (the table has slots).
    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The slot of `key`, or the free one where it goes.
    fn slot(&self, key: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = self.home(key);
        while self.slots[at].key != key && self.slots[at].key != 0 {
            at = (at + 1) & mask;
        }
        at
    }

    /// The index of `key`, or `fresh` (then given to it).
    #[inline(always)]
    fn get_or(&mut self, key: u64, fresh: u32) -> u32 {
        if key < Keys::DIRECT {
            let k = key as usize;
            if k >= self.direct.len() {
                self.direct.resize(Keys::DIRECT as usize, EMPTY);
            }
            let slot = &mut self.direct[k];
            if *slot == EMPTY {
                *slot = fresh;
            }
            return *slot;
        }
        // A key met before, in its first slot (most lookups): no call.
        if let Some(slot) = self.slots.get(self.home(key))
            && slot.key == key
        {
            return slot.index;
        }
        self.get_or_hashed(key, fresh)
    }

    #[inline(never)]
    fn get_or_hashed(&mut self, key: u64, fresh: u32) -> u32 {
        if (self.used + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let at = self.slot(key);
        let slot = &mut self.slots[at];
        if slot.key == 0 {
            *slot = Slot { key, index: fresh };
            self.used += 1;
        }
        slot.index
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        let free = Slot {
            key: 0,
            index: EMPTY,
        };
        let slots = std::mem::replace(&mut self.slots, vec![free; size]);
        self.shift = 64 - size.trailing_zeros();
        for s in slots.into_iter().filter(|s| s.key != 0) {
            let at = self.slot(s.key);
            self.slots[at] = s;
        }
    }
}

/// What a column's pages hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Values {
    /// Indices into the chunk's dictionary.
    Dictionary,
    /// Booleans, bit-packed.
    Booleans,
    /// Byte arrays, plain.
    Bytes,
}

/// Minimum and maximum of a column chunk's values, for its statistics.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Range {
    None,
    Int32(i32, i32),
    Int64(i64, i64),
    Double(f64, f64),
    Bool(bool, bool),
}

impl Range {
    pub(super) fn int32(&mut self, v: i32) {
        *self = match *self {
            Range::Int32(lo, hi) => Range::Int32(lo.min(v), hi.max(v)),
            _ => Range::Int32(v, v),
        }
    }
    pub(super) fn int64(&mut self, v: i64) {
        *self = match *self {
            Range::Int64(lo, hi) => Range::Int64(lo.min(v), hi.max(v)),
            _ => Range::Int64(v, v),
        }
    }
    pub(super) fn double(&mut self, v: f64) {
        if v.is_nan() {
            return;
        }
        *self = match *self {
            Range::Double(lo, hi) => Range::Double(lo.min(v), hi.max(v)),
            _ => Range::Double(v, v),
        }
    }
    pub(super) fn bool(&mut self, v: bool) {
        *self = match *self {
            Range::Bool(lo, hi) => Range::Bool(lo & v, hi | v),
            _ => Range::Bool(v, v),
        }
    }
}

/// What a column keeps statistics of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stats {
    /// None (moves, pockets, FENs: every page holds the whole range).
    None,
    /// Minimum, maximum and null count, from the values pushed ([`Column::extend_i32`] …).
    Values,
    /// Those of the dictionary's strings.
    Strings,
}

/// One column of a row group being written.
pub(super) struct Column {
    descr: ColumnDescPtr,
    /// Its values may be null (one definition level, unless repeated).
    nullable: bool,
    values: Values,
    stats: Stats,
    /// The dictionary's values, plain-encoded, and their number.
    dictionary: Vec<u8>,
    entries: u32,
    keys: Keys,
    /// The page's dictionary indices, definition and repetition levels.
    indices: Vec<u32>,
    defs: Vec<u32>,
    reps: Vec<u32>,
    /// The page's booleans, or its plain byte arrays.
    bools: Vec<bool>,
    plain: Vec<u8>,
    /// Level entries (values and nulls) in the page.
    page_levels: usize,
    /// The chunk's data pages, serialized, and their sizes.
    pages: TrackedWrite<Vec<u8>>,
    uncompressed: i64,
    levels_written: i64,
    nulls: u64,
    range: Range,
    dictionary_pages: bool,
    plain_pages: bool,
}

impl std::fmt::Debug for Column {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Column")
            .field("path", self.descr.path())
            .field("entries", &self.entries)
            .field("bytes", &self.size())
            .finish_non_exhaustive()
    }
}

/// The parts of a column that a page's values fill: its dictionary indices and
/// definition levels, its null count and its number of levels.
struct PageFill<'c> {
    indices: &'c mut Vec<u32>,
    defs: &'c mut Vec<u32>,
    nulls: &'c mut u64,
    nullable: bool,
    page_levels: &'c mut usize,
}

impl PageFill<'_> {
    /// A value per row, or a null (`None`), each value's dictionary index given by
    /// `index_of`.
    #[inline(always)]
    fn fill<T>(
        self,
        items: impl ExactSizeIterator<Item = Option<T>>,
        mut index_of: impl FnMut(T) -> u32,
    ) {
        // The indices and levels are written into room made first, through locals: a
        // push would test the room and store the length at every value.
        let PageFill {
            indices,
            defs,
            nulls,
            nullable,
            page_levels,
        } = self;
        let n = items.len();
        let (mut at, mut level) = (indices.len(), defs.len());
        indices.resize(at + n, 0);
        if nullable {
            defs.resize(level + n, 1);
        }
        *page_levels += n;
        for item in items {
            match item {
                Some(v) => {
                    indices[at] = index_of(v);
                    at += 1;
                    // Its level is the 1 that the room was made with.
                    level += usize::from(nullable);
                }
                None => {
                    // (A column that may not be null has no levels.)
                    if let Some(slot) = defs.get_mut(level) {
                        *slot = 0;
                        level += 1;
                    }
                    *nulls += 1;
                }
            }
        }
        indices.truncate(at);
        defs.truncate(level);
    }
}

impl Column {
    pub(super) fn new(descr: ColumnDescPtr, values: Values, stats: Stats) -> Column {
        Column {
            nullable: descr.max_def_level() > 0,
            descr,
            values,
            stats,
            dictionary: Vec::new(),
            entries: 0,
            keys: Keys::default(),
            indices: Vec::new(),
            defs: Vec::new(),
            reps: Vec::new(),
            bools: Vec::new(),
            plain: Vec::new(),
            page_levels: 0,
            pages: TrackedWrite::new(Vec::new()),
            uncompressed: 0,
            levels_written: 0,
            nulls: 0,
            range: Range::None,
            dictionary_pages: false,
            plain_pages: false,
        }
    }

    fn nullable(&self) -> bool {
        self.nullable
    }

    /// Room for a page of about `rows` levels, so that its buffers do not grow (each
    /// growth a copy of all gathered so far) while it fills.
    pub(super) fn reserve_page(&mut self, rows: usize) {
        match self.values {
            Values::Dictionary => self.indices.reserve(rows),
            Values::Booleans => self.bools.reserve(rows),
            Values::Bytes => {}
        }
        if self.nullable() {
            self.defs.reserve(rows);
        }
        if self.descr.max_rep_level() > 0 {
            self.reps.reserve(rows);
        }
    }

    /// The dictionary index of `key`, its value written by `value` (plain encoding)
    /// the first time.
    #[inline]
    pub(super) fn index(&mut self, key: u64, value: impl FnOnce(&mut Vec<u8>)) -> u32 {
        let index = self.keys.get_or(key, self.entries);
        if index == self.entries {
            value(&mut self.dictionary);
            self.entries += 1;
        }
        index
    }

    /// A value per row, or a null (`None`): each value's dictionary index found from
    /// its `key`, and the value written by `value` (plain, with its statistics' range)
    /// the first time the row group meets it. Since every value is in the dictionary,
    /// the minimum and maximum of the dictionary's values are those of the column's.
    #[inline(always)]
    pub(super) fn extend<T: Copy>(
        &mut self,
        items: impl ExactSizeIterator<Item = Option<T>>,
        mut key: impl FnMut(T) -> u64,
        mut value: impl FnMut(T, &mut Vec<u8>, &mut Range),
    ) {
        let (page, keys, entries, dictionary, range) = self.parts();
        page.fill(items, |v| {
            let index = keys.get_or(key(v), *entries);
            if index == *entries {
                value(v, dictionary, range);
                *entries += 1;
            }
            index
        });
    }

    /// Fills the row group's dictionary with `values` (plain byte arrays) before any
    /// row: for a column whose few values are known beforehand (a side, a board, a
    /// role), each value's index is then its place in `values`, pushed by
    /// [`Column::extend_fixed`] without a lookup.
    pub(super) fn fix_dictionary(&mut self, values: &[&str]) {
        assert_eq!(self.entries, 0, "a dictionary is fixed before any value");
        for v in values {
            byte_array(&mut self.dictionary, v.as_bytes());
        }
        self.entries = values.len() as u32;
    }

    /// Indices into the dictionary fixed by [`Column::fix_dictionary`], or nulls, a row
    /// each.
    #[inline(always)]
    pub(super) fn extend_fixed(&mut self, items: impl ExactSizeIterator<Item = Option<u32>>) {
        debug_assert!(self.entries > 0, "the dictionary is fixed");
        self.parts().0.fill(items, |index| index);
    }

    /// The page's parts that values fill, beside the dictionary's.
    #[inline(always)]
    fn parts(&mut self) -> (PageFill<'_>, &mut Keys, &mut u32, &mut Vec<u8>, &mut Range) {
        let Column {
            keys,
            entries,
            dictionary,
            range,
            indices,
            defs,
            nulls,
            nullable,
            page_levels,
            ..
        } = self;
        let page = PageFill {
            indices,
            defs,
            nulls,
            nullable: *nullable,
            page_levels,
        };
        (page, keys, entries, dictionary, range)
    }

    /// Int32s, or nulls, a row each (through the dictionary).
    #[inline(always)]
    pub(super) fn extend_i32(&mut self, items: impl ExactSizeIterator<Item = Option<i32>>) {
        self.extend(
            items,
            |v| u64::from(v as u32),
            |v, d, range| {
                d.extend_from_slice(&v.to_le_bytes());
                range.int32(v);
            },
        );
    }

    /// Doubles, or nulls, a row each (through the dictionary).
    #[inline(always)]
    pub(super) fn extend_f64(&mut self, items: impl ExactSizeIterator<Item = Option<f64>>) {
        self.extend(items, f64::to_bits, |v, d, range| {
            d.extend_from_slice(&v.to_le_bytes());
            range.double(v);
        });
    }

    /// Booleans, a row each (a column of [`Values::Booleans`]).
    pub(super) fn extend_bools(&mut self, items: impl ExactSizeIterator<Item = bool>) {
        let start = self.bools.len();
        self.bools.extend(items);
        self.page_levels += self.bools.len() - start;
        if self.stats == Stats::Values {
            // The least of them is whether all are true, the greatest whether any is.
            let new = &self.bools[start..];
            if !new.is_empty() {
                self.range.bool(!new.contains(&false));
                self.range.bool(new.contains(&true));
            }
        }
    }

    /// A value of the dictionary `n` times over (a game's file on each of its plies).
    pub(super) fn push_n(&mut self, index: u32, n: usize) {
        self.indices.extend(std::iter::repeat_n(index, n));
        if self.nullable {
            self.defs.extend(std::iter::repeat_n(1, n));
        }
        self.page_levels += n;
    }

    /// A null `n` times over.
    pub(super) fn push_nulls(&mut self, n: usize) {
        self.defs.extend(std::iter::repeat_n(0, n));
        self.nulls += n as u64;
        self.page_levels += n;
    }

    /// The dictionary index of an int64 (pushed by [`Column::push_n`], as often as it
    /// repeats).
    pub(super) fn index_i64(&mut self, v: i64) -> u32 {
        self.range.int64(v);
        self.index(v as u64, |d| d.extend_from_slice(&v.to_le_bytes()))
    }

    /// A value for the statistics of a column whose indices are pushed by number.
    #[inline]
    pub(super) fn note_i32(&mut self, v: i32) {
        self.range.int32(v);
    }

    /// A byte array written plain (a column of [`Values::Bytes`]).
    pub(super) fn plain(&mut self, v: &[u8]) {
        byte_array(&mut self.plain, v);
        self.page_levels += 1;
    }

    /// A list's entry of a repeated column: `rep` 0 for a row's first, `def` as the
    /// schema counts it, and a dictionary index when the entry holds a value.
    pub(super) fn push_level(&mut self, rep: u32, def: u32, index: Option<u32>) {
        self.reps.push(rep);
        self.defs.push(def);
        match index {
            Some(i) => self.indices.push(i),
            None => self.nulls += 1,
        }
        self.page_levels += 1;
    }

    /// The bytes held (the page being gathered and the chunk's pages).
    pub(super) fn size(&self) -> usize {
        self.indices.len() * 4
            + self.defs.len() * 4
            + self.reps.len() * 4
            + self.bools.len()
            + self.plain.len()
            + self.dictionary.len()
            + self.pages.bytes_written()
    }

    /// Encodes the page gathered, compressed by `codec`, after the chunk's others.
    pub(super) fn end_page(&mut self, codec: &mut Compressor) -> Result<(), ParquetError> {
        if self.page_levels == 0 {
            return Ok(());
        }
        let mut buf = Vec::with_capacity(self.indices.len() * 2 + self.plain.len() + 64);
        if self.descr.max_rep_level() > 0 {
            levels(&mut buf, &self.reps, self.descr.max_rep_level());
        }
        if self.nullable() {
            levels(&mut buf, &self.defs, self.descr.max_def_level());
        }
        let encoding = match self.values {
            Values::Dictionary if self.indices.is_empty() => {
                self.plain_pages = true;
                Encoding::PLAIN
            }
            Values::Dictionary => {
                let width = bit_width(self.entries - 1);
                buf.push(width);
                hybrid(&mut buf, &self.indices, width);
                self.dictionary_pages = true;
                Encoding::RLE_DICTIONARY
            }
            Values::Booleans => {
                pack_bools(&mut buf, &self.bools);
                self.plain_pages = true;
                Encoding::PLAIN
            }
            Values::Bytes => {
                buf.extend_from_slice(&self.plain);
                self.plain_pages = true;
                Encoding::PLAIN
            }
        };
        let size = buf.len();
        let page = Page::DataPage {
            buf: Bytes::from(codec.compress(buf)?),
            num_values: self.page_levels as u32,
            encoding,
            def_level_encoding: Encoding::RLE,
            rep_level_encoding: Encoding::RLE,
            statistics: None,
        };
        let spec = SerializedPageWriter::new(&mut self.pages)
            .write_page(CompressedPage::new(page, size))?;
        self.uncompressed += spec.uncompressed_size as i64;
        self.levels_written += self.page_levels as i64;
        self.page_levels = 0;
        self.indices.clear();
        self.defs.clear();
        self.reps.clear();
        self.bools.clear();
        self.plain.clear();
        Ok(())
    }

    /// The chunk's statistics.
    fn statistics(&self) -> Option<Statistics> {
        let nulls = Some(self.nulls);
        match (self.stats, self.range) {
            (Stats::None, _) => None,
            (Stats::Strings, _) => {
                let strings = DictionaryStrings(&self.dictionary);
                let min = strings.clone().min().map(|s| s.to_vec().into());
                let max = strings.max().map(|s| s.to_vec().into());
                Some(Statistics::byte_array(min, max, None, nulls, false))
            }
            (Stats::Values, Range::Int32(lo, hi)) => {
                Some(Statistics::int32(Some(lo), Some(hi), None, nulls, false))
            }
            (Stats::Values, Range::Int64(lo, hi)) => {
                Some(Statistics::int64(Some(lo), Some(hi), None, nulls, false))
            }
            (Stats::Values, Range::Double(lo, hi)) => {
                Some(Statistics::double(Some(lo), Some(hi), None, nulls, false))
            }
            (Stats::Values, Range::Bool(lo, hi)) => {
                Some(Statistics::boolean(Some(lo), Some(hi), None, nulls, false))
            }
            // Every value null: the null count alone.
            (Stats::Values, Range::None) => Some(match self.descr.physical_type() {
                Type::BOOLEAN => Statistics::boolean(None, None, None, nulls, false),
                Type::INT64 => Statistics::int64(None, None, None, nulls, false),
                Type::DOUBLE => Statistics::double(None, None, None, nulls, false),
                _ => Statistics::int32(None, None, None, nulls, false),
            }),
        }
    }

    /// Ends the row group's chunk: the page gathered, then the dictionary's page in
    /// front of the data pages; the chunk's bytes and what the row group records of it.
    /// The column starts again empty, with a new dictionary.
    pub(super) fn end_chunk(
        &mut self,
        codec: &mut Compressor,
        kind: Codec,
        rows: usize,
    ) -> Result<(Bytes, ColumnCloseResult), ParquetError> {
        self.end_page(codec)?;
        let statistics = self.statistics();
        let mut chunk = TrackedWrite::new(Vec::new());
        let mut uncompressed = self.uncompressed;
        let mut encodings = Vec::new();
        if self.dictionary_pages {
            let dictionary = std::mem::take(&mut self.dictionary);
            let size = dictionary.len();
            let page = Page::DictionaryPage {
                buf: Bytes::from(codec.compress(dictionary)?),
                num_values: self.entries,
                encoding: Encoding::PLAIN,
                is_sorted: false,
            };
            let spec = SerializedPageWriter::new(&mut chunk)
                .write_page(CompressedPage::new(page, size))?;
            uncompressed += spec.uncompressed_size as i64;
            encodings.push(Encoding::PLAIN);
            encodings.push(Encoding::RLE_DICTIONARY);
        }
        if self.plain_pages && !encodings.contains(&Encoding::PLAIN) {
            encodings.push(Encoding::PLAIN);
        }
        if self.descr.max_def_level() > 0 || self.descr.max_rep_level() > 0 {
            encodings.push(Encoding::RLE);
        }
        let dictionary_len = chunk.bytes_written() as i64;
        let pages = std::mem::replace(&mut self.pages, TrackedWrite::new(Vec::new()));
        let mut bytes = chunk.into_inner()?;
        bytes.extend_from_slice(&pages.into_inner()?);
        let mut meta = ColumnChunkMetaData::builder(self.descr.clone())
            .set_compression(compression(kind))
            .set_encodings(encodings)
            .set_num_values(self.levels_written)
            .set_total_compressed_size(bytes.len() as i64)
            .set_total_uncompressed_size(uncompressed)
            .set_data_page_offset(dictionary_len)
            .set_dictionary_page_offset(self.dictionary_pages.then_some(0));
        if let Some(s) = statistics {
            meta = meta.set_statistics(s);
        }
        let close = ColumnCloseResult {
            bytes_written: bytes.len() as u64,
            rows_written: rows as u64,
            metadata: meta.build()?,
            bloom_filter: None,
            column_index: None,
            offset_index: None,
        };
        *self = Column::new(self.descr.clone(), self.values, self.stats);
        Ok((Bytes::from(bytes), close))
    }
}

/// A byte array, plain: its length in four bytes, then its bytes.
pub(super) fn byte_array(out: &mut Vec<u8>, v: &[u8]) {
    out.extend_from_slice(&(v.len() as u32).to_le_bytes());
    out.extend_from_slice(v);
}

/// The strings of a plain-encoded dictionary.
#[derive(Clone)]
struct DictionaryStrings<'a>(&'a [u8]);

impl<'a> Iterator for DictionaryStrings<'a> {
    type Item = &'a [u8];
    fn next(&mut self) -> Option<&'a [u8]> {
        let (len, rest) = self.0.split_first_chunk::<4>()?;
        let (s, rest) = rest.split_at(u32::from_le_bytes(*len) as usize);
        self.0 = rest;
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A column of each kind: nullable (one definition level) and required.
    fn columns() -> (Column, Column) {
        let schema = parquet::schema::parser::parse_message_type(
            "message m { optional int32 maybe; required int32 always; }",
        )
        .unwrap();
        let schema = parquet::schema::types::SchemaDescriptor::new(std::sync::Arc::new(schema));
        let column = |i: usize| Column::new(schema.column(i), Values::Dictionary, Stats::Values);
        (column(0), column(1))
    }

    /// Values and nulls pushed in two calls: each value's index is its first place in
    /// the dictionary, a null has level 0 and no index, and the dictionary, the count of
    /// nulls and levels and the range are the values'.
    #[test]
    fn a_columns_values_take_indices_levels_and_nulls() {
        let (mut maybe, mut always) = columns();
        maybe.extend_i32([Some(5), None, Some(-7), Some(5)].into_iter());
        maybe.extend_i32([None, Some(9), Some(-7)].into_iter());
        assert_eq!(maybe.indices, [0, 1, 0, 2, 1]);
        assert_eq!(maybe.defs, [1, 0, 1, 1, 0, 1, 1]);
        assert_eq!((maybe.nulls, maybe.page_levels, maybe.entries), (2, 7, 3));
        let dictionary: Vec<u8> = [5i32, -7, 9].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(maybe.dictionary, dictionary);
        assert_eq!(maybe.range, Range::Int32(-7, 9));

        always.extend_i32([Some(3), Some(3), Some(4)].into_iter());
        always.extend_i32([Some(4), Some(2)].into_iter());
        assert_eq!(always.indices, [0, 0, 1, 1, 2]);
        assert!(always.defs.is_empty(), "a required column has no levels");
        assert_eq!(
            (always.nulls, always.page_levels, always.entries),
            (0, 5, 3)
        );
        assert_eq!(always.range, Range::Int32(2, 4));
    }

    #[test]
    fn keys_keep_their_first_index() {
        let mut keys = Keys::default();
        let mut next = 0;
        let mut seen = std::collections::HashMap::new();
        for i in 0..20_000u64 {
            let key = (i * 7919) % 3001 + if i % 3 == 0 { 0 } else { 1 << 40 };
            let fresh = next;
            let got = keys.get_or(key, fresh);
            let want = *seen.entry(key).or_insert(fresh);
            if got == fresh {
                next += 1;
            }
            assert_eq!(got, want, "key {key}");
        }
        assert_eq!(next as usize, seen.len());
    }

    /// The hashed table doubles exactly when a key would fill it past half: at most half
    /// full (probes stay short), at least a quarter once past its first 64 slots.
    #[test]
    fn the_key_table_doubles_when_half_full() {
        let mut keys = Keys::default();
        for n in 1..=5000u64 {
            keys.get_or(Keys::DIRECT + n * 7919, 0);
            let n = n as usize;
            assert_eq!(keys.used, n);
            assert_eq!(
                keys.slots.len(),
                (2 * n).next_power_of_two().max(64),
                "{n} keys"
            );
        }
    }
}
