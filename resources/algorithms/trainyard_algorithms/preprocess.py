# SPDX-License-Identifier: GPL-2.0-or-later
"""The service's input format and its automatic preprocessing (``--preprocess``), for all three algorithms.

Sources (research notes /work/research/builtin_algorithms.md; "[V]" verified there, "[I]" inferred by us):

Format [V] (algorithms/preprocessing-data, reference/linear-learner):
    a CSV file, UTF-8, no header row, the target in the first column, numeric and categorical columns,
    a blank value = missing. Checked on every file (:func:`read_table`): a file that is not UTF-8, a row with
    a different number of fields (ragged), an empty table and a header row fail with a :class:`CsvError`
    naming the file, the line (1-based, as an editor counts) and the column (1-based; the target is column 1).

Column types (:func:`detect_column_type`; the console's CSV preview mirrors it):
    - a cell is *missing* when empty; *integer* when it matches ``[+-]?[0-9]+`` (spaces around allowed);
      *number* when it matches ``[+-]?([0-9]+.?[0-9]*|.[0-9]+)([eE][+-]?[0-9]+)?``; *text* otherwise.
    - no value, or a single distinct value: ``constant`` (treatment "constant") [V: the analysis names the
      treatment], not used as a feature [I].
    - every value integer, all distinct, none missing: ``key`` (treatment "row_identifier"), dropped [V: TabNet
      page, same preprocessing module: "If every integer value is unique, the column is treated as an instance
      key"].
    - every value integer with at most FEW_INTEGER_VALUES distinct values: ``categorical`` (treatment
      "identity") [V: "only a few unique integer values … categorical"; the threshold is ours, the page gives
      none]. Write the values as floats (101.0) to force numeric, or prefix them (code_101) to force
      categorical, as the page says.
    - every value a number: ``numeric``.
    - any text: ``categorical``, treatment "vocabulary", or "hashing" (crc32 of the UTF-8 text modulo
      HASH_BUCKETS) beyond MAX_VOCABULARY distinct values [V: "columns with many categories are treated as
      hashing"; thresholds ours].
    Types are detected on the whole training file; statistics (means, vocabularies) on the training split.

Transforms with --preprocess, in the service's order [V, algorithms/preprocessing-data]:
    1. Split: without --validation_data_path, ``validation_split`` (default 0.20 [V]) of the training rows become
       the validation set; without --test_data_path, ``test_split`` (default 0.20 [I]) the test set;
       validation_split + test_split <= 0.40 [V]. Rows are drawn at random with a seed (--seed when the job
       passes one, else a random one [I]) that metadata.json records.
    2. Rows with more than 10% of their feature values missing are dropped [V] (counted over the features in
       use, key and constant columns left out [I]); rows without a target are dropped [I: nothing to learn].
       A feature column blank in more than SPARSE_COLUMN_FRACTION of the training file's rows does not count
       [I]: its blanks describe the column, not the row, and with fewer than ten features one blank is already
       over 10 %, so a 90 %-blank column would drop 90 % of the rows (issue 44). It stays a feature (step 3).
    3. Missing numeric values become the training split's mean [V]; a missing or unseen category is encoded as
       no category at all (all zeros one-hot; the service: "zero is used for categorical columns") [V].
    4. Categorical columns are one-hot encoded in place, in the CSV's column order [V: the page's example row
       ``[3, 0.45, ..., 'fruits', 0, 1]`` → ``[3, 0.45, ..., 1, 0, 0, 0, 1]``].
    5. Classification: the target's classes, sorted (numbers numerically, text lexically) [I], become class
       indices 0..K-1; the labels are kept for prediction. Regression: the target must be numeric.
    Written: ``<out>/processed_data/{training,validation,test}.csv`` (target first, then the encoded features;
    no header) and ``<out>/metadata.json`` (every column's type, treatment, mean, vocabulary, the labels, the
    seed, row counts) [V: the service writes both; the JSON layout is ours].

Without --preprocess [V: the service requires prepared data then]: every column must be numeric; blanks stay
missing for XGBoost (its own missing-value handling) and become the training mean for the PyTorch algorithms;
a classification target must hold class indices 0..K-1.
"""

import codecs
import csv
import os
import re
import warnings
import zlib

from . import common
from .common import JobError, log

MISSING_FRACTION = 0.10  # [V] "Remove rows that have more than 10% of features missing"
SPARSE_COLUMN_FRACTION = 0.10  # [I] a column blank in more rows than this is left out of the row rule
# [I] most distinct values of an integer column read as categorical. An integer scale with more levels (pixel
# intensities 0..16, counts, scores) is ordered: one-hot encoding throws the order away and learns each level from
# its few rows (issue 44: at 20, scikit-learn's digits were 64 one-hot columns of 17 intensities).
FEW_INTEGER_VALUES = 10
MAX_VOCABULARY = 200  # [I] most distinct values of a text column encoded by vocabulary, beyond it hashing
HASH_BUCKETS = 200  # [I]
MAX_VALIDATION_PLUS_TEST = 0.40  # [V] "validation_split + test_split <= 0.40"
DEFAULT_VALIDATION_SPLIT = 0.20  # [V]
DEFAULT_TEST_SPLIT = 0.20  # [I] from memory of the reference table

FORMAT = "trainyard-builtin-preprocessing/1"

_INTEGER_RE = re.compile(r"^\s*[+-]?[0-9]+\s*$")
_NUMBER_RE = re.compile(r"^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$")
_SCAN_CHUNK = 1 << 24  # bytes read at a time when checking a file


class CsvError(JobError):
    """A file that breaks the format. ``path``, ``line`` and ``column`` are 1-based (column 1 = the target).
    str() reads ``<path>: line L, column C: <problem>``."""

    def __init__(self, path, line, column, problem):
        self.path, self.line, self.column, self.problem = path, line, column, problem
        super().__init__("%s: line %d, column %d: %s" % (path, line, column, problem))


class BadCell(ValueError):
    """A cell :meth:`Preprocessor.transform` cannot use: ``row`` is the 0-based position in the frame it was
    given, ``column`` the CSV column (0-based, target = 0), ``value`` the cell."""

    def __init__(self, row, column, value, problem):
        self.row, self.column, self.value, self.problem = row, column, value, problem
        super().__init__("column %d: %r %s" % (column + 1, value, problem))


# ---------------------------------------------------------------------------------------------------------------
# The rule on cell texts (what the console's preview mirrors)


def cell_kind(text):
    """"missing", "integer", "number" or "text" for one cell's text (None counts as missing)."""
    if text is None or text == "":
        return "missing"
    if _INTEGER_RE.match(text):
        return "integer"
    if _NUMBER_RE.match(text):
        return "number"
    return "text"


def detect_column_type(cells):
    """The type of a feature column from its cells' texts (a list of str; "" or None = missing).

    Returns {"type": "numeric"|"categorical"|"key"|"constant", "treatment": "numeric"|"identity"|"vocabulary"|
    "hashing"|"row_identifier"|"constant", "missing": count, "distinct": count of distinct present values}.
    The module docstring gives each rule's source; :func:`analyze` applies the same rule to a pandas frame."""
    present = [c for c in cells if c is not None and c != ""]
    kinds = {cell_kind(c) for c in present}
    missing = len(cells) - len(present)
    if kinds <= {"integer"}:
        distinct = len({int(c) for c in present})
    elif kinds <= {"integer", "number"}:
        distinct = len({float(c) for c in present})
    else:
        distinct = len(set(present))
    return dict(_classify(kinds, distinct, len(present), missing), missing=missing, distinct=distinct)


def _classify(kinds, distinct, present, missing):
    if distinct <= 1:
        return {"type": "constant", "treatment": "constant"}
    if kinds <= {"integer"}:
        if distinct == present and missing == 0:
            return {"type": "key", "treatment": "row_identifier"}
        if distinct <= FEW_INTEGER_VALUES:
            return {"type": "categorical", "treatment": "identity"}
        return {"type": "numeric", "treatment": "numeric"}
    if kinds <= {"integer", "number"}:
        return {"type": "numeric", "treatment": "numeric"}
    if distinct > MAX_VOCABULARY:
        return {"type": "categorical", "treatment": "hashing"}
    return {"type": "categorical", "treatment": "vocabulary"}


def hash_bucket(text, buckets=HASH_BUCKETS):
    """The bucket of a hashed category: zlib's CRC-32 of the UTF-8 bytes modulo ``buckets`` (stable across
    processes and languages; C++ mirrors it with the same CRC-32)."""
    return zlib.crc32(text.encode("utf-8")) % buckets


# ---------------------------------------------------------------------------------------------------------------
# Reading and checking a file


class Table:
    """One CSV file as read: ``frame`` (pandas DataFrame, columns 0..C-1, numeric columns as int64/float64,
    the others as str objects, NaN = missing), ``lines`` (numpy int64 [rows]: the 1-based line of each row),
    ``path``; ``positions`` (numpy int64 [rows] or None): which of the file's rows these are, for a subset."""

    def __init__(self, path, frame, lines, positions=None):
        self.path, self.frame, self.lines, self.positions = path, frame, lines, positions

    @property
    def columns(self):
        return self.frame.shape[1]

    def __len__(self):
        return self.frame.shape[0]

    def column_text(self, column):
        """The column's cells as text, as written in the file ("" = missing), numpy object [rows]. Re-reads the
        column: the frame's numbers no longer tell 101 from 101.0, which the type rule looks at."""
        pd = common.require("pandas")
        texts = pd.read_csv(self.path, header=None, usecols=[column], dtype=str, keep_default_na=False,
                            na_values=[], skip_blank_lines=True, encoding="utf-8")[column].to_numpy()
        return texts if self.positions is None else texts[self.positions]

    def rows(self, positions):
        """A Table of some rows (numpy positions into this one), keeping their line numbers."""
        np = common.require("numpy")
        positions = np.asarray(positions, dtype=np.int64)
        source = positions if self.positions is None else self.positions[positions]
        return Table(self.path, self.frame.iloc[positions].reset_index(drop=True), self.lines[positions], source)


def _scan(path, want_fields=True, progress=None):
    """Checks encoding and row lengths without parsing values; returns (fields per row, numpy int64 [rows]: the
    1-based line of each data row).

    The file is read in blocks of whole lines. UTF-8: each block is decoded strictly, so an error's byte offset
    gives the line and the column (the commas before it on its line). Row lengths: while the file has no quote
    character, commas are counted per line with numpy (no field can hold a comma or a line break then); a file
    with quotes is read again with Python's csv module, which knows quoting. Both are exact. Blank lines are
    skipped, as pandas skips them. Raises CsvError (not UTF-8, ragged); returns (0, empty) for a file without
    rows, which the caller reports as an empty table."""
    np = common.require("numpy")
    counts, lines = [], []
    quoted = False
    line_no = 0  # lines before the current block
    offset = 0  # file offset of the current block
    carry = b""
    size = max(os.path.getsize(path), 1) if progress else 1
    with open(path, "rb") as f:
        while True:
            if progress:
                progress(int(60 * f.tell() / size))
            chunk = f.read(_SCAN_CHUNK)
            if chunk:
                cut = chunk.rfind(b"\n")
                if cut < 0:
                    carry += chunk
                    continue
                block, carry = carry + chunk[:cut + 1], chunk[cut + 1:]
            elif carry:
                block, carry = carry, b""
            else:
                break
            if offset == 0 and block.startswith(codecs.BOM_UTF8):
                block = block[len(codecs.BOM_UTF8):]
                offset = len(codecs.BOM_UTF8)
            try:
                if not block.isascii():  # ASCII is UTF-8; isascii() is many times faster than decoding
                    codecs.utf_8_decode(block, "strict", True)
            except UnicodeDecodeError as e:
                before = block[:e.start]
                line_start = before.rfind(b"\n") + 1
                raise CsvError(path, line_no + before.count(b"\n") + 1, before[line_start:].count(b",") + 1,
                               "not UTF-8 (byte 0x%02x at offset %d of the file); save the file as UTF-8"
                               % (block[e.start], offset + e.start)) from None
            quoted = quoted or b'"' in block
            buf = np.frombuffer(block, dtype=np.uint8)
            ends = np.flatnonzero(buf == 10)
            if not len(ends) or ends[-1] != len(buf) - 1:  # the last line has no line break
                ends = np.append(ends, len(buf))
            if want_fields and not quoted:
                starts = np.concatenate(([0], ends[:-1] + 1))
                # Commas from each line's start to the next's (the line break between is not a comma). The
                # starts are distinct and inside the block, as reduceat needs.
                per_line = np.add.reduceat(buf == 44, starts, dtype=np.int64)
                lengths = ends - starts
                lengths -= (lengths > 0) & (buf[np.maximum(ends - 1, 0)] == 13)  # CRLF
                nonblank = lengths > 0
                counts.append(per_line[nonblank])
                lines.append(np.flatnonzero(nonblank) + line_no + 1)
            line_no += len(ends)
            offset += len(block)
    if not want_fields:
        return 0, None
    if quoted:
        return _scan_quoted(path, np)
    counts = np.concatenate(counts) if counts else np.zeros(0, np.int64)
    lines = np.concatenate(lines).astype(np.int64) if lines else np.zeros(0, np.int64)
    if not len(counts):
        return 0, lines
    fields = counts + 1
    bad = np.flatnonzero(fields != fields[0])
    if len(bad):
        _ragged(path, int(lines[0]), int(fields[0]), int(lines[bad[0]]), int(fields[bad[0]]))
    return int(fields[0]), lines


def _scan_quoted(path, np):
    lines = []
    expected = first_line = None
    with open(path, newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        start = 1
        for row in reader:
            if row and (len(row) > 1 or row[0].strip("\r") != ""):
                if expected is None:
                    expected, first_line = len(row), start
                elif len(row) != expected:
                    _ragged(path, first_line, expected, start, len(row))
                lines.append(start)
            start = reader.line_num + 1
    return (expected or 0), np.asarray(lines, dtype=np.int64)


def _ragged(path, first_line, expected, line, fields):
    column = expected + 1 if fields > expected else fields + 1
    what = "an extra field" if fields > expected else "a missing field"
    raise CsvError(path, line, column, "ragged row: %d fields where line %d has %d (%s); every row must have the "
                   "same number of columns" % (fields, first_line, expected, what))


def read_table(path, text_columns=(), check_header=True, progress=None):
    """Reads one CSV file in the service's format into a :class:`Table`.

    ``text_columns``: CSV columns (0-based) to keep as text even when every cell looks like a number
    (categorical columns of a validation or test file, so "3.50" stays "3.50" as in the vocabulary).
    Raises CsvError for a missing/unreadable file, a file that is not UTF-8, a ragged row, an empty table, and
    (``check_header``) a header row: a first row with text in a column whose other values are all numbers.
    ``progress``: None, or called with a percentage (int) as the file is checked (0..60) and parsed (60..90)."""
    pd = common.require("pandas")
    np = common.require("numpy")
    if not os.path.isfile(path):
        raise CsvError(path, 1, 1, "no such file")
    try:
        fields, lines = _scan(path, progress=progress)
    except OSError as e:
        raise CsvError(path, 1, 1, "cannot read: %s" % e.strerror) from None
    if fields == 0 or lines is None or len(lines) == 0:
        raise CsvError(path, 1, 1, "the table is empty (no rows)")
    dtypes = {c: str for c in text_columns if c < fields}
    if progress:
        progress(60)
    try:
        # pandas' default chunked parse (low_memory) is twice as fast as a whole-file one; a column it typed
        # differently in two chunks (numbers, then text) is re-read as text below.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pd.errors.DtypeWarning)
            frame = pd.read_csv(path, header=None, na_values=[""], keep_default_na=False, skip_blank_lines=True,
                                encoding="utf-8", dtype=dtypes or None)
    except (pd.errors.ParserError, ValueError) as e:  # the scan makes this rare: say what pandas said
        raise CsvError(path, 1, 1, "cannot parse: %s" % e) from None
    if frame.shape != (len(lines), fields):
        raise CsvError(path, int(lines[0]), 1, "read %d rows of %d fields, expected %d of %d (quoted line breaks?)"
                       % (frame.shape[0], frame.shape[1], len(lines), fields))
    frame.columns = range(fields)
    if progress:
        progress(90)
    table = Table(path, frame, lines)
    # pandas reads true/false as booleans, and a column typed per chunk may mix numbers and text; the format
    # knows only numbers and text as written.
    for c in range(fields):
        col = frame[c]
        if col.dtype == bool or (col.dtype == object and
                                 pd.api.types.infer_dtype(col, skipna=True) not in ("string", "empty")):
            text = table.column_text(c)
            frame[c] = pd.Series(text, dtype=object).where(text != "", np.nan)
    if check_header and len(frame) > 1:
        _check_header(table, np, pd)
    return table


def _check_header(table, np, pd):
    frame = table.frame
    for c in range(table.columns):
        col = frame[c]
        if col.dtype != object:
            continue
        first = col.iloc[0]
        if not isinstance(first, str) or cell_kind(first) in ("integer", "number"):
            continue
        rest = col.iloc[1:]
        present = rest.notna()
        if not present.any():
            continue
        numeric = pd.to_numeric(rest[present], errors="coerce")
        if numeric.notna().all():
            raise CsvError(table.path, int(table.lines[0]), c + 1,
                           "looks like a header row (%r above numbers); the service's CSV has no header: remove "
                           "the first line" % first)


def first_bad_cell(table, column, ok):
    """(line, text) of the first cell of ``column`` whose text fails ``ok(kind)``; None when all pass."""
    texts = table.column_text(column)
    for i, text in enumerate(texts):
        if text != "" and not ok(cell_kind(text)):
            return int(table.lines[i]), text
    return None


# ---------------------------------------------------------------------------------------------------------------
# Column analysis on a frame (the fast path of detect_column_type)


def _frame_column_type(table, c):
    """detect_column_type() for column ``c`` of a table, from pandas' parse (text re-read only where the parse
    cannot tell: integral floats, infinities)."""
    np = common.require("numpy")
    col = table.frame[c]
    n = len(col)
    present = col.dropna()
    missing = n - len(present)
    if col.dtype.kind in "iu":
        kinds = {"integer"}
        distinct = int(present.nunique())
    elif col.dtype.kind == "f":
        values = present.to_numpy()
        if not np.isfinite(values).all():  # "inf" parses as a float but is text by the rule
            return detect_column_type(list(table.column_text(c)))
        if len(values) and (values == np.floor(values)).all():
            # 101 and 101.0 parse alike; the rule tells them apart by their text.
            return detect_column_type(list(table.column_text(c)))
        kinds = {"number"}
        distinct = int(present.nunique())
    else:  # text as written: the rule itself
        return detect_column_type(col.fillna("").tolist())
    return dict(_classify(kinds, distinct, len(present), missing), missing=missing, distinct=distinct)


def analyze(table):
    """Detects every feature column's type on ``table`` (the whole training file). Returns a list of dicts, one
    per CSV column: {"index", "type", "treatment", "missing", "distinct"}; index 0 is {"type": "target"}."""
    columns = [{"index": 0, "type": "target", "treatment": "target"}]
    for c in range(1, table.columns):
        columns.append(dict(_frame_column_type(table, c), index=c))
    return columns


# ---------------------------------------------------------------------------------------------------------------
# The fitted transform (training and serving use the same one)


class Preprocessor:
    """Turns raw rows into model input: numeric features (float32 [N, n_numeric]) and categorical features as
    vocabulary indices (int64 [N, n_categorical], -1 = missing or unseen), both in CSV column order; and the
    flat one-hot matrix XGBoost and processed_data/ use (float32 [N, n_features]).

    ``columns``: the analysis plus statistics: numeric {"mean"}; identity {"vocabulary": [int, …]}; vocabulary
    {"vocabulary": [str, …]}; hashing {"buckets": B}. ``missing_numeric``: "mean" (fill) or "keep" (NaN, for
    XGBoost without --preprocess). Serialised as preprocessing.json (:meth:`to_json`, :meth:`from_json`)."""

    def __init__(self, columns, task, labels, missing_numeric="mean", num_columns=None):
        self.columns = columns
        self.task = task
        self.labels = labels
        self.missing_numeric = missing_numeric
        self.num_columns = num_columns or len(columns)
        self.numeric = [c for c in columns if c["type"] == "numeric"]
        self.categorical = [c for c in columns if c["type"] == "categorical"]
        self._lookup = {}
        for c in self.categorical:
            if c["treatment"] != "hashing":
                self._lookup[c["index"]] = {v: i for i, v in enumerate(c["vocabulary"])}

    # -- description

    def cardinalities(self):
        """Vocabulary size (or bucket count) of each categorical feature, in order."""
        return [c["buckets"] if c["treatment"] == "hashing" else len(c["vocabulary"]) for c in self.categorical]

    def features(self):
        """The flat features in order: {"column": CSV index, "kind": "numeric"} or {"column", "kind":
        "category", "value": v} (vocabulary/identity) or {"column", "kind": "bucket", "value": b} (hashing)."""
        out = []
        for c in self.columns:
            if c["type"] == "numeric":
                out.append({"column": c["index"], "kind": "numeric"})
            elif c["type"] == "categorical":
                if c["treatment"] == "hashing":
                    out.extend({"column": c["index"], "kind": "bucket", "value": b} for b in range(c["buckets"]))
                else:
                    out.extend({"column": c["index"], "kind": "category", "value": v} for v in c["vocabulary"])
        return out

    def to_json(self):
        return {"format": FORMAT, "num_columns": self.num_columns, "task": self.task,
                "target": {"column": 0, "labels": self.labels},
                "missing_numeric": self.missing_numeric, "columns": self.columns, "features": self.features(),
                "categorical_encoding": "one_hot"}

    @classmethod
    def from_json(cls, body):
        if body.get("format") != FORMAT:
            raise ValueError("not a %s file (format %r)" % (FORMAT, body.get("format")))
        return cls(body["columns"], body["task"], body["target"]["labels"], body["missing_numeric"],
                   body["num_columns"])

    # -- transforms

    def transform(self, frame):
        """``frame``: pandas DataFrame whose columns include every used CSV column index (int labels); numeric
        cells may be numbers or numeric text, categorical cells text (numbers are matched by their str()).
        Returns (numeric float32 [N, n_numeric], categorical int64 [N, n_categorical]).
        Raises BadCell for a numeric column's cell that is not a number."""
        np = common.require("numpy")
        pd = common.require("pandas")
        n = len(frame)
        num = np.empty((n, len(self.numeric)), dtype=np.float32)
        for j, c in enumerate(self.numeric):
            col = frame[c["index"]]
            if col.dtype.kind in "iuf":
                values = col.to_numpy(dtype=np.float64)
            else:
                values = pd.to_numeric(col, errors="coerce").to_numpy(dtype=np.float64)
                bad = np.isnan(values) & col.notna().to_numpy() & (col.astype(str).to_numpy() != "")
                if bad.any():
                    i = int(np.flatnonzero(bad)[0])
                    raise BadCell(i, c["index"], col.iloc[i], "is not a number (the column is numeric)")
            if self.missing_numeric == "mean":
                values = np.where(np.isnan(values), c["mean"], values)
            num[:, j] = values
        cat = np.empty((n, len(self.categorical)), dtype=np.int64)
        for j, c in enumerate(self.categorical):
            col = frame[c["index"]]
            if c["treatment"] == "identity":
                values = pd.to_numeric(col, errors="coerce").to_numpy(dtype=np.float64)
                index = pd.Index(np.asarray(c["vocabulary"], dtype=np.float64))
                cat[:, j] = index.get_indexer(values)  # -1 for missing (NaN), unseen, non-integral
            elif c["treatment"] == "vocabulary":
                lookup = self._lookup[c["index"]]
                cat[:, j] = [lookup.get(_category_text(v), -1) for v in col.tolist()]
            else:
                buckets = c["buckets"]
                cat[:, j] = [-1 if _category_text(v) is None else hash_bucket(_category_text(v), buckets)
                             for v in col.tolist()]
        return num, cat

    def flat(self, num, cat):
        """The one-hot matrix (float32 [N, n_features]) in features() order; -1 categories are all zeros."""
        np = common.require("numpy")
        n = num.shape[0]
        widths = []
        for c in self.columns:
            if c["type"] == "numeric":
                widths.append(("n", 1))
            elif c["type"] == "categorical":
                widths.append(("c", c["buckets"] if c["treatment"] == "hashing" else len(c["vocabulary"])))
        total = sum(w for _, w in widths)
        out = np.zeros((n, total), dtype=np.float32)
        pos = 0
        ni = ci = 0
        rows = np.arange(n)
        for kind, width in widths:
            if kind == "n":
                out[:, pos] = num[:, ni]
                ni += 1
            else:
                idx = cat[:, ci]
                ok = idx >= 0
                out[rows[ok], pos + idx[ok]] = 1.0
                ci += 1
            pos += width
        return out

    def labels_of(self, target, path=None, lines=None):
        """Class indices (int64 [N]) of a target column (classification), or float32 values (regression).
        Raises CsvError (with ``path``/``lines``) or ValueError for an unknown class or a non-numeric value."""
        np = common.require("numpy")
        pd = common.require("pandas")
        if self.task == "regression":
            values = pd.to_numeric(target, errors="coerce").to_numpy(dtype=np.float64)
            bad = np.flatnonzero(np.isnan(values))
            if len(bad):
                i = int(bad[0])
                _fail_cell(path, lines, i, 0, "target %r is not a number (regression needs numbers)"
                           % target.iloc[i])
            return values.astype(np.float32)
        lookup = {v: i for i, v in enumerate(self.labels)}
        texts = [_label_text(v) for v in target.tolist()]
        out = np.fromiter((lookup.get(t, -1) for t in texts), dtype=np.int64, count=len(texts))
        bad = np.flatnonzero(out < 0)
        if len(bad):
            i = int(bad[0])
            _fail_cell(path, lines, i, 0, "class %r is not one of the training data's classes (%s)"
                       % (texts[i], ", ".join(self.labels[:10]) + (", …" if len(self.labels) > 10 else "")))
        return out


def _fail_cell(path, lines, i, column, problem):
    if path is not None:
        raise CsvError(path, int(lines[i]), column + 1, problem)
    raise ValueError("row %d, column %d: %s" % (i, column + 1, problem))


def _category_text(value):
    """A categorical cell as its vocabulary key: text as is; a number as str() writes it; None/NaN/"" missing."""
    if value is None or value == "":
        return None
    if isinstance(value, float):
        if value != value:
            return None
        return repr(value)
    return str(value)


def _label_text(value):
    """A class label as text: text as is, an integral number without ".0", another number as repr()."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    if f == int(f):
        return str(int(f))
    return repr(f)


def _sorted_labels(target):
    """The classes of a target column (pandas Series), sorted: numbers numerically, text lexically."""
    present = target.dropna()
    if present.dtype.kind in "iuf":
        return [_label_text(v) for v in sorted(set(present.tolist()))]
    return sorted({str(v) for v in present.tolist()})


# ---------------------------------------------------------------------------------------------------------------
# A job's data, end to end


class Split:
    """One data set ready for training: ``num`` float32 [N, n_numeric], ``cat`` int64 [N, n_categorical],
    ``y`` (int64 class indices or float32 values) [N], ``weight`` float32 [N] or None, ``name``."""

    def __init__(self, name, num, cat, y, weight=None):
        self.name, self.num, self.cat, self.y, self.weight = name, num, cat, y, weight

    def __len__(self):
        return len(self.y)


class Prepared:
    """What :func:`prepare` returns: ``preprocessor``, ``splits`` {"training", "validation"?, "test"?: Split},
    ``task``, ``labels`` (class labels as text, or None), ``num_class`` (K, or 0 for regression), ``seed``."""

    def __init__(self, preprocessor, splits, seed):
        self.preprocessor = preprocessor
        self.splits = splits
        self.seed = seed

    @property
    def task(self):
        return self.preprocessor.task

    @property
    def labels(self):
        return self.preprocessor.labels

    @property
    def num_class(self):
        return len(self.labels) if self.labels else 0


def _missing_filter(table, used, counted, np):
    """Rows to keep: a target, and at most MISSING_FRACTION of the used feature columns missing, counting the
    blanks of the ``counted`` columns only (the used ones that are not sparse; module docstring, step 2)."""
    frame = table.frame
    keep_target = frame[0].notna().to_numpy()
    if used:
        missing = frame[counted].isna().to_numpy().sum(axis=1) if counted else np.zeros(len(frame), np.int64)
        keep_features = missing <= MISSING_FRACTION * len(used)
    else:
        keep_features = np.ones(len(frame), dtype=bool)
    return keep_target, keep_features


def prepare(args, task, out_dir, algorithm, num_class=None, keep_missing=False, weight_column=False, write=True):
    """Reads the job's CSV files and applies the service's rules (module docstring).

    ``args``: the parsed arguments (training_data_path, validation_data_path, test_data_path, and with
    --preprocess: preprocess, validation_split, test_split; seed when the algorithm has one).
    ``task``: "classification" or "regression". ``num_class``: classes asked for (without --preprocess the
    class count is this, else the largest index + 1). ``keep_missing``: numeric blanks stay NaN without
    --preprocess (XGBoost). ``weight_column``: column 1 (after the target) holds instance weights (XGBoost's
    csv_weight), not a feature. ``write``: write processed_data/ and metadata.json (--preprocess).
    Returns Prepared. Raises CsvError/JobError."""
    np = common.require("numpy")
    pd = common.require("pandas")
    preprocess = bool(getattr(args, "preprocess", False))
    paths = {"training": args.training_data_path, "validation": args.validation_data_path,
             "test": args.test_data_path}
    training = read_table(paths["training"])
    if training.columns < (3 if weight_column else 2):
        raise CsvError(paths["training"], int(training.lines[0]), 1, "no feature columns: the file has %d column(s)"
                       " (target first, then the features%s)" % (training.columns, ", weight second" if weight_column
                                                                  else ""))
    log("Read %s: %d rows, %d columns" % (paths["training"], len(training), training.columns))
    first_feature = 2 if weight_column else 1
    seed = getattr(args, "seed", None)
    if preprocess:
        columns = analyze(training)
        if weight_column:
            columns[1] = {"index": 1, "type": "weight", "treatment": "weight"}
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "little") & 0x7FFFFFFF
    else:
        columns = [{"index": 0, "type": "target", "treatment": "target"}]
        if weight_column:
            columns.append({"index": 1, "type": "weight", "treatment": "weight"})
        for c in range(first_feature, training.columns):
            if training.frame[c].dtype == object:
                where = first_bad_cell(training, c, lambda k: k in ("integer", "number"))
                line, text = where if where else (int(training.lines[0]), "?")
                raise CsvError(training.path, line, c + 1, "%r is not a number; without --preprocess every column "
                               "must be numeric (pass --preprocess to encode categorical columns)" % text)
            columns.append({"index": c, "type": "numeric", "treatment": "numeric"})
    for c in columns:
        if c["type"] in ("key", "constant"):
            log("Column %d: %s (%s), not used as a feature" % (c["index"] + 1, c["type"], c["treatment"]))
    used = [c["index"] for c in columns if c["type"] in ("numeric", "categorical")]
    if not used:
        raise JobError("%s: no usable feature column (every column after the target is a key or constant)"
                       % paths["training"])

    # Labels: from the whole training file, so that a rare class drawn into the validation split is known.
    labels = None
    if task == "classification":
        target = training.frame[0]
        if preprocess:
            labels = _sorted_labels(target)
        else:
            labels = _index_labels(training, num_class)
        if len(labels) < 2:
            raise CsvError(training.path, int(training.lines[0]), 1, "the target has %d class(es); classification "
                           "needs at least 2" % len(labels))
    elif training.frame[0].dtype == object:
        where = first_bad_cell(training, 0, lambda k: k in ("integer", "number"))
        line, text = where if where else (int(training.lines[0]), "?")
        raise CsvError(training.path, line, 1, "target %r is not a number (regression needs numbers)" % text)

    # 1. Splits (--preprocess only), drawn before rows are dropped, as the service orders it.
    parts = {"training": training}
    validation_split = test_split = 0.0
    if preprocess:
        validation_split, test_split = _split_fractions(args)
        n = len(training)
        order = np.random.default_rng(seed).permutation(n)
        n_test = int(round(test_split * n))
        n_val = int(round(validation_split * n))
        if n_test:
            parts["test"] = training.rows(np.sort(order[:n_test]))
        if n_val:
            parts["validation"] = training.rows(np.sort(order[n_test:n_test + n_val]))
        parts["training"] = training.rows(np.sort(order[n_test + n_val:]))
        log("Split seed %d: %d training, %d validation, %d test rows" % (
            seed, len(parts["training"]), len(parts["validation"]) if "validation" in parts else 0,
            len(parts["test"]) if "test" in parts else 0))
    text_columns = [c["index"] for c in columns if c["type"] == "categorical"]
    for name in ("validation", "test"):
        if paths[name]:
            table = read_table(paths[name], text_columns=text_columns)
            if table.columns != training.columns:
                raise CsvError(table.path, int(table.lines[0]), min(table.columns, training.columns) + 1,
                               "%d columns where the training file %s has %d" % (table.columns, paths["training"],
                                                                                 training.columns))
            parts[name] = table
            log("Read %s: %d rows" % (paths[name], len(table)))

    # 2. Rows: a target, and not too many features missing (--preprocess).
    counted = used
    if preprocess:
        counted = []
        for c in columns:
            if c["index"] not in used:
                continue
            if c["missing"] > SPARSE_COLUMN_FRACTION * len(training):
                c["sparse"] = True
                log("Column %d: %d of %d values blank (more than %d%%): a feature whose blanks do not count in the "
                    "rule that drops rows with more than %d%% of their features missing" % (
                        c["index"] + 1, c["missing"], len(training), int(SPARSE_COLUMN_FRACTION * 100),
                        int(MISSING_FRACTION * 100)))
            else:
                counted.append(c["index"])
    dropped = {}
    for name in list(parts):
        table = parts[name]
        keep_target, keep_features = _missing_filter(table, used, counted, np)
        if preprocess:
            keep = keep_target & keep_features
            dropped[name] = {"missing_target": int((~keep_target).sum()),
                             "too_many_missing": int((keep_target & ~keep_features).sum())}
            if not keep.all():
                log("%s: dropped %d rows without a target and %d with more than %d%% of their features missing"
                    % (name, dropped[name]["missing_target"], dropped[name]["too_many_missing"],
                       int(MISSING_FRACTION * 100)))
                parts[name] = table.rows(np.flatnonzero(keep))
        elif not keep_target.all():
            i = int(np.flatnonzero(~keep_target)[0])
            raise CsvError(table.path, int(table.lines[i]), 1, "the target is missing (blank); without --preprocess "
                           "every row needs one")
        if len(parts[name]) == 0:
            raise CsvError(table.path, int(table.lines[0]), 1, "no %s rows left after dropping rows with missing "
                           "values" % name)

    # 3. Statistics on the training split.
    train_frame = parts["training"].frame
    for c in columns:
        if c["type"] == "numeric":
            values = pd.to_numeric(train_frame[c["index"]], errors="coerce")
            mean = float(values.mean()) if values.notna().any() else 0.0
            c["mean"] = mean
        elif c["type"] == "categorical":
            if c["treatment"] == "hashing":
                c["buckets"] = HASH_BUCKETS
            elif c["treatment"] == "identity":
                c["vocabulary"] = sorted(int(v) for v in pd.to_numeric(train_frame[c["index"]], errors="coerce")
                                         .dropna().unique())
            else:
                c["vocabulary"] = sorted({_category_text(v) for v in train_frame[c["index"]].dropna().tolist()})
            # The most frequent training value: an explanation's baseline for the column (explanations.py; the
            # service's advice for a categorical input). Ties go to the first in sorted order; None when all missing.
            present = train_frame[c["index"]].dropna()
            if c["treatment"] == "identity":
                present = pd.to_numeric(present, errors="coerce").dropna().astype("int64")
            else:
                present = present.map(_category_text)
            counts = present.value_counts()
            c["mode"] = None if counts.empty else sorted(counts[counts == counts.max()].index.tolist())[0]
            if c["mode"] is not None and c["treatment"] == "identity":
                c["mode"] = int(c["mode"])
    preprocessor = Preprocessor(columns, task, labels, "keep" if (keep_missing and not preprocess) else "mean",
                                training.columns)

    # 4. Encode.
    splits = {}
    for name, table in parts.items():
        try:
            num, cat = preprocessor.transform(table.frame)
        except BadCell as e:
            raise CsvError(table.path, int(table.lines[e.row]), e.column + 1, "%r is not a number (the column is "
                           "numeric in the training file)" % e.value) from None
        y = preprocessor.labels_of(table.frame[0], table.path, table.lines)
        if task == "classification" and not preprocess and len(y) and int(y.max()) >= len(labels):
            i = int(np.argmax(y))
            raise CsvError(table.path, int(table.lines[i]), 1, "class index %d is not below num_class %d"
                           % (y[i], len(labels)))
        weight = None
        if weight_column:
            weight = pd.to_numeric(table.frame[1], errors="coerce").to_numpy(dtype=np.float32)
            bad = np.flatnonzero(~np.isfinite(weight) | (weight < 0))
            if len(bad):
                raise CsvError(table.path, int(table.lines[bad[0]]), 2, "weight %r is not a number >= 0 "
                               "(--csv_weight=1 reads column 2 as instance weights)" % table.frame[1].iloc[bad[0]])
        splits[name] = Split(name, num, cat, y, weight)

    if preprocess and write:
        _write_outputs(out_dir, preprocessor, splits, seed, validation_split, test_split, paths, dropped,
                       {name: len(t) for name, t in parts.items()}, algorithm)
    return Prepared(preprocessor, splits, seed)


def _index_labels(table, num_class):
    """Without --preprocess a classification target holds class indices 0..K-1: checks that, returns ["0", …]."""
    np = common.require("numpy")
    target = table.frame[0]
    if target.dtype == object:
        where = first_bad_cell(table, 0, lambda k: k == "integer")
        line, text = where if where else (int(table.lines[0]), "?")
        raise CsvError(table.path, line, 1, "class %r is not a class index; without --preprocess the target must "
                       "hold 0, 1, … (pass --preprocess to map labels to indices)" % text)
    values = target.dropna().to_numpy(dtype=np.float64)
    bad = np.flatnonzero((values != np.floor(values)) | (values < 0))
    if len(bad):
        present = np.flatnonzero(target.notna().to_numpy())
        raise CsvError(table.path, int(table.lines[present[bad[0]]]), 1, "class %r is not a class index (0, 1, …); "
                       "pass --preprocess to map labels to indices" % values[bad[0]])
    k = int(values.max()) + 1 if len(values) else 0
    if num_class:
        k = num_class
    return [str(i) for i in range(k)]


def _split_fractions(args):
    given_val = getattr(args, "validation_split", None)
    given_test = getattr(args, "test_split", None)
    validation = 0.0 if args.validation_data_path else (DEFAULT_VALIDATION_SPLIT if given_val is None else given_val)
    test = 0.0 if args.test_data_path else (DEFAULT_TEST_SPLIT if given_test is None else given_test)
    if args.validation_data_path and given_val:
        common.warn("--validation_split=%g is ignored: --validation_data_path names the validation data" % given_val)
    if args.test_data_path and given_test:
        common.warn("--test_split=%g is ignored: --test_data_path names the test data" % given_test)
    if validation + test > MAX_VALIDATION_PLUS_TEST + 1e-9:
        raise JobError("argument --test_split: validation_split + test_split must be at most %.2f, got %g + %g"
                       % (MAX_VALIDATION_PLUS_TEST, validation, test))
    return validation, test


def _write_outputs(out_dir, preprocessor, splits, seed, validation_split, test_split, paths, dropped, rows,
                   algorithm):
    np = common.require("numpy")
    folder = os.path.join(out_dir, "processed_data")
    os.makedirs(folder, exist_ok=True)
    written = {}
    for name, split in splits.items():
        flat = preprocessor.flat(split.num, split.cat)
        path = os.path.join(folder, name + ".csv")
        _write_matrix(path, split.y, flat, np)
        written[name] = os.path.relpath(path, out_dir)
    body = preprocessor.to_json()
    body.update({
        "algorithm": algorithm,
        "seed": seed,
        "validation_split": validation_split,
        "test_split": test_split,
        "source": {k: (os.path.abspath(v) if v else None) for k, v in paths.items()},
        "rows": {name: {"kept": rows[name], **dropped.get(name, {})} for name in rows},
        "processed_data": written,
    })
    common.write_json(os.path.join(out_dir, "metadata.json"), body)
    log("Wrote %s and %s/" % (os.path.join(out_dir, "metadata.json"), folder))


def _write_matrix(path, y, flat, np):
    """Target then features, no header. A column whose values are all whole numbers is written as integers
    (one-hot columns, pixels: "0", "255"); any other as the shortest text that reads back as the same float32
    (20.29, not 20.2900009), so retraining on processed_data/ sees the very values the job trained on."""
    pd = common.require("pandas")
    integral = np.concatenate(([bool((y == np.floor(y)).all()) if len(y) else True],
                               (flat == np.floor(flat)).all(axis=0) if len(flat) else np.ones(flat.shape[1], bool)))
    tmp = path + ".tmp%d" % os.getpid()
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        block = 8192  # rows per DataFrame: bounds the int64 copies
        for start in range(0, len(y), block):
            columns = [y[start:start + block]] + [flat[start:start + block, j] for j in range(flat.shape[1])]
            frame = pd.DataFrame({j: (c.astype(np.int64) if integral[j] else c.astype(np.float32))
                                  for j, c in enumerate(columns)})
            frame.to_csv(f, header=False, index=False, lineterminator="\n")
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------------------------
# The console's preview


# [I] The target rule (the console proposes the objective from it; --objective or --model_type overrides it): a
# target with any text is classes; one with a fractional value is a quantity; integers are classes up to
# MAX_TARGET_CLASSES distinct values, a quantity beyond (counts, grams, years), and also from
# THIN_TARGET_CLASSES values on when they are more than THIN_CLASS_FRACTION of the rows (20 rows per class on
# average: fewer are too thin to be classes; a 12-value integer column over 100 rows is a measurement).
MAX_TARGET_CLASSES = 20
THIN_TARGET_CLASSES = 10
THIN_CLASS_FRACTION = 0.05


def target_task(table):
    """Whether ``table``'s target (column 0, the whole file as read by :func:`read_table`) reads as classes or as a
    quantity, by the rule above (the constants' comment says where each threshold comes from).

    Returns {"task": "classification"|"regression", "rule": which part of the rule decided ("text", "fractional",
    "many_integers", "thin_integers", "few_integers"; the console words it), "reason": the same in English,
    "class_count": distinct present values, "labels": the classes sorted as training sorts them (at most 50;
    classification only), "numeric": every present value is a number, "min"/"max" (numeric only),
    "missing": empty cells}."""
    np = common.require("numpy")
    col = table.frame[0]
    present = col.dropna()
    out = {"missing": int(len(col) - len(present)), "class_count": int(present.nunique()), "labels": [],
           "numeric": present.dtype.kind in "iuf" and len(present) > 0}
    k = out["class_count"]
    if out["numeric"]:
        values = present.to_numpy(dtype=float)
        out["min"], out["max"] = float(values.min()), float(values.max())
        fractional = values[np.isfinite(values) & (values != np.floor(values))]
        if len(fractional) or not np.isfinite(values).all():
            out["task"], out["rule"] = "regression", "fractional"
            out["reason"] = "the target has fractional values (e.g. %s)" % (
                _label_text(fractional[0]) if len(fractional) else "inf")
        elif k > MAX_TARGET_CLASSES:
            out["task"], out["rule"] = "regression", "many_integers"
            out["reason"] = "the target has %d distinct integers (more than %d: a quantity, not classes)" % (
                k, MAX_TARGET_CLASSES)
        elif k > THIN_TARGET_CLASSES and k > THIN_CLASS_FRACTION * len(present):
            out["task"], out["rule"] = "regression", "thin_integers"
            out["reason"] = ("the target has %d distinct integers over %d rows (more than %d values and more than "
                             "%d %% of the rows: too few rows per value to be classes)"
                             % (k, len(present), THIN_TARGET_CLASSES, round(THIN_CLASS_FRACTION * 100)))
        else:
            out["task"], out["rule"] = "classification", "few_integers"
            out["reason"] = "the target has %d distinct integers (at most %d: classes)" % (k, MAX_TARGET_CLASSES)
    else:
        out["task"], out["rule"] = "classification", "text"
        sample = next((v for v in present.tolist() if cell_kind(str(v)) == "text"), None)
        out["reason"] = ("the target has text values (e.g. %r)" % sample) if sample is not None \
            else "the target has no values"
    if out["task"] == "classification":
        out["labels"] = _sorted_labels(present)[:50]
    return out


def preview(path, max_rows=100, progress=None):
    """What the wizard's CSV preview shows: the first ``max_rows`` rows as text, and every figure from the whole
    file, read as training reads it (:func:`read_table`, types by :func:`analyze`, the task by
    :func:`target_task`): a table sorted by its target shows all its classes, and a column's missing count is over
    all rows.

    ``progress``: called with a percentage (int 0..100) while the file is read, or None.
    Returns {"path", "total_rows", "rows" (list of lists of str, at most max_rows), "columns": [{"index", "type",
    "treatment", "missing", "distinct"} …] (column 0 = {"type": "target", "classes": K (distinct values), "labels",
    "task", "task_rule", "task_reason", "numeric": bool, "min", "max" (when numeric), "missing"}), "warnings": [str], "error":
    str or None (a CsvError's text: not UTF-8, ragged, empty)}. Never raises for a bad file."""
    pd = common.require("pandas")
    out = {"path": path, "total_rows": 0, "rows": [], "columns": [], "warnings": [], "error": None}
    try:
        table = read_table(path, check_header=False, progress=progress)
        frame = pd.read_csv(path, header=None, dtype=str, keep_default_na=False, na_values=[], nrows=max_rows,
                            skip_blank_lines=True, encoding="utf-8")
    except CsvError as e:
        out["error"] = str(e)
        return out
    except pd.errors.EmptyDataError:
        out["error"] = str(CsvError(path, 1, 1, "the table is empty (no rows)"))
        return out
    except (pd.errors.ParserError, UnicodeDecodeError) as e:
        out["error"] = "%s: %s" % (path, e)
        return out
    rows = frame.values.tolist()
    out["rows"] = rows
    out["total_rows"] = len(table)
    task = target_task(table)
    info = {"index": 0, "type": "target", "treatment": "target", "classes": task["class_count"],
            "labels": task["labels"], "task": task["task"], "task_rule": task["rule"],
            "task_reason": task["reason"],
            "missing": task["missing"], "numeric": task["numeric"]}
    if "min" in task:
        info["min"], info["max"] = task["min"], task["max"]
    out["columns"].append(info)
    for col in analyze(table)[1:]:
        out["columns"].append(col)
        if col["missing"]:
            out["warnings"].append("column %d: %d of %d values missing" % (col["index"] + 1, col["missing"],
                                                                           len(table)))
    if len(table) > 1:
        try:
            _check_header(table, common.require("numpy"), pd)
        except CsvError as e:
            out["warnings"].append("line 1 looks like a header row: %s" % e)
    if progress:
        progress(100)
    return out
