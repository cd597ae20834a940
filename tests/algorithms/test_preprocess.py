# SPDX-License-Identifier: GPL-2.0-or-later
"""The service's CSV format and --preprocess rules (trainyard_algorithms.preprocess), one case per rule.

In process: the rules are functions; no subprocess needed (the end-to-end runs are in test_algorithms.py)."""

import argparse
import contextlib
import io
import json
import os
import tempfile
import unittest

import support  # noqa: F401  (puts resources/algorithms on sys.path)

from trainyard_algorithms import preprocess
from trainyard_algorithms.common import JobError


def args(training, validation=None, test=None, preprocess_=True, validation_split=None, test_split=None,
         seed=None):
    return argparse.Namespace(training_data_path=training, validation_data_path=validation, test_data_path=test,
                              preprocess=preprocess_, validation_split=validation_split, test_split=test_split,
                              seed=seed)


class Tmp(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pre-", dir=support.scratch())
        self.enterContext(contextlib.redirect_stdout(io.StringIO()))  # the module's log lines

    def path(self, name):
        return os.path.join(self.dir, name)

    def table(self, name, rows):
        return support.write_csv(self.path(name), rows)

    def raw(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)


# (name, cells of one feature column, expected type, expected treatment). Sources: the module docstring.
TYPE_CASES = [
    ("decimals are numeric", ["1.5", "2.5", "3.5", "1.5"], "numeric", "numeric"),
    ("all-unique integers are a key", ["11", "12", "13", "14"], "key", "row_identifier"),
    ("few integers are categorical", ["1", "2", "1", "2"], "categorical", "identity"),
    ("many integers are numeric", [str(i % 30) for i in range(60)], "numeric", "numeric"),
    ("ten integers are categorical", [str(i % 10) for i in range(40)], "categorical", "identity"),
    ("an integer scale of 17 levels is numeric", [str(i % 17) for i in range(68)], "numeric", "numeric"),
    ("integers written as floats are numeric", ["101.0", "102.0", "101.0"], "numeric", "numeric"),
    ("prefixed integers are categorical", ["code_101", "code_102", "code_101"], "categorical", "vocabulary"),
    ("one value is constant", ["a", "a", "a"], "constant", "constant"),
    ("all missing is constant", ["", "", ""], "constant", "constant"),
    ("unique integers with a gap are not a key", ["1", "2", "", "3"], "categorical", "identity"),
    ("many categories are hashed", ["v%d" % (i % 250) for i in range(500)], "categorical", "hashing"),
    ("inf is text", ["inf", "1", "2"], "categorical", "vocabulary"),
    ("exponents are numbers", ["1e3", "2", "3", "2"], "numeric", "numeric"),
    ("spaces around integers", [" 3", "4", "4"], "categorical", "identity"),
    ("signed integers", ["+3", "-4", "-4", "5"], "categorical", "identity"),
    ("text mixed with numbers is categorical", ["1", "x", "2", "1"], "categorical", "vocabulary"),
]


class ColumnTypes(Tmp):
    def test_text_rule(self):
        for name, cells, kind, treatment in TYPE_CASES:
            with self.subTest(name):
                got = preprocess.detect_column_type(cells)
                self.assertEqual((got["type"], got["treatment"]), (kind, treatment))
                self.assertEqual(got["missing"], sum(1 for c in cells if c == ""))

    def test_pandas_path_agrees_with_text_rule(self):
        # analyze() reads pandas' parse; it must give what the console's text rule gives.
        for name, cells, kind, treatment in TYPE_CASES:
            with self.subTest(name):
                path = self.table(name.replace(" ", "_") + ".csv",
                                  [["1" if i % 2 else "0", c, "0.5" if i % 2 else "1.5"] for i, c in enumerate(cells)])
                columns = preprocess.analyze(preprocess.read_table(path, check_header=False))
                self.assertEqual((columns[1]["type"], columns[1]["treatment"]), (kind, treatment))

    def test_preview_reports_types_target_and_warnings(self):
        got = preprocess.preview(support.data("diabetes.csv"), max_rows=50)
        self.assertIsNone(got["error"])
        self.assertEqual(len(got["rows"]), 50)
        self.assertEqual(got["columns"][0]["type"], "target")
        self.assertTrue(got["columns"][0]["numeric"])
        self.assertEqual(got["columns"][2]["type"], "categorical")  # sex: 1 or 2
        self.assertEqual(got["columns"][3]["type"], "numeric")  # bmi
        header = self.table("header.csv", [["y", "a"], ["1", "2.5"], ["0", "3.5"]])
        self.assertTrue(any("header" in w for w in preprocess.preview(header)["warnings"]))
        bad = self.raw("latin1.csv", b"1,caf\xe9\n")
        self.assertIn("not UTF-8", preprocess.preview(bad)["error"])
        # A ragged row is the same error training stops with (the console blocks Next on it).
        ragged = self.raw("ragged.csv", b"1,2.5,3\n0,1.5\n")
        self.assertIn("line 2", preprocess.preview(ragged)["error"] or "")

    def sorted_by_target(self, name, source, target_column=0):
        """A public table with ``target_column`` moved to the front and the rows sorted by it, as many exports
        are: its first rows show one class or a narrow range of the target."""
        with open(support.data(source)) as f:
            rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
        rows = [[r[target_column]] + r[:target_column] + r[target_column + 1:] for r in rows]
        numeric = all(preprocess.cell_kind(r[0]) in ("integer", "number") for r in rows if r[0])
        rows.sort(key=lambda r: (r[0] == "", float(r[0]) if numeric and r[0] else 0, r[0]))
        return self.table(name, rows)

    def test_preview_task_comes_from_every_row(self):
        # Issue 46 item 1: from its first 20 rows a target-sorted table shows one class, and an integer quantity
        # (grams, disease progression) shows a few values that read as classes.
        cases = [
            (self.sorted_by_target("cancer.csv", "breast_cancer.csv"), "classification", 2, ["benign", "malignant"]),
            (self.sorted_by_target("wine.csv", "wine.csv"), "classification", 3, ["0", "1", "2"]),
            (self.sorted_by_target("gaps.csv", "sorted_gaps.csv"), "classification", 3, ["reef", "rock", "shore"]),
            (self.sorted_by_target("diabetes.csv", "diabetes.csv"), "regression", None, []),
            (self.sorted_by_target("mass.csv", "sorted_gaps.csv", 5), "regression", None, []),  # grams
            (self.sorted_by_target("length.csv", "sorted_gaps.csv", 2), "regression", None, []),  # decimals
        ]
        for path, task, classes, labels in cases:
            with self.subTest(path=os.path.basename(path)):
                got = preprocess.preview(path, max_rows=20)
                self.assertIsNone(got["error"])
                self.assertEqual(len(got["rows"]), 20)
                target = got["columns"][0]
                self.assertEqual(target["task"], task, target["task_reason"])
                if classes is not None:
                    self.assertEqual(target["classes"], classes)
                self.assertEqual(target["labels"], labels)
                self.assertGreater(got["total_rows"], 100)

    def test_target_rule_thresholds(self):
        # The rule's edges (preprocess.MAX_TARGET_CLASSES and the thin-class fraction), on small tables.
        def task(values):
            path = self.table("t.csv", [[v, str(i % 7)] for i, v in enumerate(values)])
            return preprocess.preview(path)["columns"][0]["task"]
        self.assertEqual(task([str(i % 20) for i in range(400)]), "classification")  # 20 values, 20 rows each
        self.assertEqual(task([str(i % 21) for i in range(420)]), "regression")  # 21 values
        self.assertEqual(task([str(i % 12) for i in range(120)]), "regression")  # 12 values over 120 rows: thin
        self.assertEqual(task([str(i % 3) for i in range(12)]), "classification")  # few classes, few rows
        self.assertEqual(task(["%d.5" % (i % 3) for i in range(30)]), "regression")  # fractional
        self.assertEqual(task(["a", "b"] * 10), "classification")


class BadFiles(Tmp):
    """Each bad file fails with a message naming the file, the line and the column."""

    CASES = [
        # (name, bytes, line, column, words in the message)
        ("header.csv", b"label,x,y\n1,0.5,2\n0,1.5,3\n", 1, 1, "header"),
        ("header_in_column_3.csv", b"a,1,y\nb,2,3\nc,3,4\n", 1, 3, "header"),
        ("latin1.csv", b"a,1\nb,2\nc,caf\xe9\n", 3, 2, "not UTF-8"),
        ("ragged_long.csv", b"1,2,3\n1,2,3\n1,2,3,4\n", 3, 4, "ragged"),
        ("ragged_short.csv", b"1,2,3\n\n1,2\n1,2,3\n", 3, 3, "ragged"),
        ("ragged_quoted.csv", b'1,"a,b",3\n1,2,3\n1,"x\ny",3,4\n', 3, 4, "ragged"),
        ("empty.csv", b"", 1, 1, "empty"),
        ("blank_lines.csv", b"\n\r\n\n", 1, 1, "empty"),
    ]

    def test_each_bad_file(self):
        for name, data, line, column, words in self.CASES:
            with self.subTest(name):
                path = self.raw(name, data)
                with self.assertRaises(preprocess.CsvError) as caught:
                    preprocess.read_table(path)
                e = caught.exception
                self.assertEqual((e.path, e.line, e.column), (path, line, column), str(e))
                self.assertIn("%s: line %d, column %d:" % (path, line, column), str(e))
                self.assertIn(words, str(e))

    def test_good_files_pass(self):
        # CRLF line ends, blank lines, a UTF-8 BOM, quoted commas, a missing last line break.
        for name, data, rows in [("crlf.csv", b"1,2\r\n\r\n3,4\r\n", 2), ("bom.csv", b"\xef\xbb\xbf1,2\n3,4", 2),
                                 ("quoted.csv", b'1,"a,b"\n0,"c"\n', 2), ("utf8.csv", "1,café\n0,thé\n".encode(), 2)]:
            with self.subTest(name):
                table = preprocess.read_table(self.raw(name, data))
                self.assertEqual(len(table), rows)
                self.assertEqual(table.columns, 2)

    def test_line_numbers_skip_blank_lines(self):
        table = preprocess.read_table(self.raw("gaps.csv", b"1,2\n\n3,4\n\n\n5,6\n"))
        self.assertEqual(table.lines.tolist(), [1, 3, 6])

    def test_validation_file_must_match(self):
        train = self.table("t.csv", [[i % 2, i * 0.5, i % 3 * 1.5] for i in range(20)])
        val = self.table("v.csv", [[1, 0.5], [0, 1.5]])
        with self.assertRaises(preprocess.CsvError) as caught:
            preprocess.prepare(args(train, validation=val, test_split=0), "classification", self.dir, "t",
                               write=False)
        self.assertIn("v.csv: line 1, column 3", str(caught.exception))


class Rules(Tmp):
    def prepare(self, rows, task="regression", **kw):
        path = self.table("train.csv", rows)
        kw.setdefault("validation_split", 0)
        kw.setdefault("test_split", 0)
        return preprocess.prepare(args(path, **kw), task, self.dir, "test", write=True)

    def metadata(self):
        with open(self.path("metadata.json")) as f:
            return json.load(f)

    def test_rows_with_more_than_10_percent_missing_are_dropped(self):
        # 10 numeric features: one blank (10%) stays, two blanks (20%) go; a row without a target goes.
        full = [[str(i)] + ["%d.5" % ((i + j) % 7) for j in range(10)] for i in range(30)]
        full[3][4] = ""
        full[5][2] = full[5][7] = ""
        full[8][0] = ""
        prepared = self.prepare(full)
        self.assertEqual(len(prepared.splits["training"]), 28)
        rows = self.metadata()["rows"]["training"]
        self.assertEqual((rows["kept"], rows["too_many_missing"], rows["missing_target"]), (28, 1, 1))

    def test_a_mostly_blank_column_does_not_drop_rows(self):
        # 4 features; column 5 is blank in 27 of 30 rows (more than 10 %): its blanks do not count, so only the
        # row with a blank in another column (1 of 4, over 10 %) goes. The column stays a feature, mean-filled.
        rows = [[str(i)] + ["%d.5" % ((i + j) % 7) for j in range(3)] + ["%d.25" % i if i % 10 == 0 else ""]
                for i in range(30)]
        rows[7][2] = ""
        prepared = self.prepare(rows)
        self.assertEqual(len(prepared.splits["training"]), 29)
        meta = self.metadata()
        self.assertEqual(meta["rows"]["training"]["too_many_missing"], 1)
        self.assertTrue(meta["columns"][4]["sparse"])
        self.assertNotIn("sparse", meta["columns"][2])
        self.assertEqual([f["column"] for f in meta["features"]], [1, 2, 3, 4])
        self.assertAlmostEqual(meta["columns"][4]["mean"], (0.25 + 10.25 + 20.25) / 3, places=9)

    def test_numeric_gaps_get_the_training_mean(self):
        # Ten more features, so that one blank is 1 of 11 (under 10%: the row stays).
        rows = [[str(i), "%d.25" % i] + ["%d.5" % ((i + j) % 7) for j in range(10)] for i in range(12)]
        rows[4][1] = ""
        prepared = self.prepare(rows)
        values = [i + 0.25 for i in range(12) if i != 4]
        mean = sum(values) / len(values)
        self.assertAlmostEqual(float(prepared.splits["training"].num[4, 0]), mean, places=4)
        self.assertAlmostEqual(self.metadata()["columns"][1]["mean"], mean, places=9)

    def test_categorical_columns_are_one_hot_in_place(self):
        rows = [[str(i), "%d.5" % i, ["red", "green", "blue"][i % 3], "%d.75" % (i * 2)] for i in range(12)]
        self.prepare(rows)
        meta = self.metadata()
        self.assertEqual(meta["columns"][2]["vocabulary"], ["blue", "green", "red"])
        kinds = [(f["column"], f["kind"], f.get("value")) for f in meta["features"]]
        self.assertEqual(kinds, [(1, "numeric", None), (2, "category", "blue"), (2, "category", "green"),
                                 (2, "category", "red"), (3, "numeric", None)])
        y, x = support.read_matrix(self.path("processed_data/training.csv"))
        self.assertEqual(x.shape, (12, 5))
        self.assertEqual(x[0].tolist(), [0.5, 0, 0, 1, 0.75])  # red
        self.assertEqual(x[1].tolist(), [1.5, 0, 1, 0, 2.75])  # green

    def test_unseen_or_missing_category_is_all_zeros(self):
        def more(i):  # ten more varying features: one blank of 12 stays under 10%
            return ["%d.5" % ((i + j) % 7) for j in range(10)]
        train = self.table("t.csv", [[str(i), "%d.5" % i, ["a", "b"][i % 2]] + more(i) for i in range(10)])
        val = self.table("v.csv", [["1", "2.5", "c"] + more(1), ["0", "3.5", ""] + more(2),
                                   ["1", "4.5", "b"] + more(3)])
        prepared = preprocess.prepare(args(train, validation=val, test_split=0), "regression", self.dir, "t")
        self.assertEqual(prepared.splits["validation"].cat[:, 0].tolist(), [-1, -1, 1])
        flat = prepared.preprocessor.flat(prepared.splits["validation"].num, prepared.splits["validation"].cat)
        self.assertEqual(flat[:, 1:3].tolist(), [[0, 0], [0, 0], [0, 1]])

    def test_key_and_constant_columns_are_not_features(self):
        rows = [[str(i % 2), str(1000 + i), "%d.5" % i, "same"] for i in range(10)]
        prepared = self.prepare(rows, task="classification")
        meta = self.metadata()
        self.assertEqual(meta["columns"][1]["type"], "key")
        self.assertEqual(meta["columns"][3]["type"], "constant")
        self.assertEqual([f["column"] for f in meta["features"]], [2])
        self.assertEqual(prepared.splits["training"].num.shape, (10, 1))

    def test_splits_are_random_with_a_recorded_seed(self):
        rows = [[str(i), "%d.5" % i] for i in range(100)]
        first = self.prepare(rows, validation_split=0.2, test_split=0.1)
        seed = self.metadata()["seed"]
        self.assertEqual([len(first.splits[s]) for s in ("training", "validation", "test")], [70, 20, 10])
        test_y = sorted(first.splits["test"].y.tolist())
        self.assertNotEqual(test_y, [float(i) for i in range(10)])  # drawn, not the first rows
        again = self.prepare(rows, validation_split=0.2, test_split=0.1, seed=seed)
        self.assertEqual(sorted(again.splits["test"].y.tolist()), test_y)
        other = self.prepare(rows, validation_split=0.2, test_split=0.1, seed=seed + 1)
        self.assertNotEqual(sorted(other.splits["test"].y.tolist()), test_y)

    def test_default_splits_are_20_percent(self):
        rows = [[str(i), "%d.5" % i] for i in range(50)]
        prepared = preprocess.prepare(args(self.table("t.csv", rows)), "regression", self.dir, "t")
        self.assertEqual([len(prepared.splits[s]) for s in ("training", "validation", "test")], [30, 10, 10])

    def test_splits_over_40_percent_fail(self):
        rows = [[str(i), "%d.5" % i] for i in range(50)]
        with self.assertRaises(JobError) as caught:
            self.prepare(rows, validation_split=0.3, test_split=0.2)
        self.assertIn("--test_split", str(caught.exception))

    def test_string_target_becomes_sorted_class_indices(self):
        rows = [[["cat", "ant", "bee"][i % 3], "%d.5" % i] for i in range(12)]
        prepared = self.prepare(rows, task="classification")
        self.assertEqual(prepared.labels, ["ant", "bee", "cat"])
        self.assertEqual(prepared.splits["training"].y[:3].tolist(), [2, 0, 1])
        self.assertEqual(self.metadata()["target"]["labels"], ["ant", "bee", "cat"])

    def test_numeric_classes_sort_numerically(self):
        rows = [[["10", "9", "100"][i % 3], "%d.5" % i] for i in range(12)]
        self.assertEqual(self.prepare(rows, task="classification").labels, ["9", "10", "100"])

    def test_unknown_class_in_a_validation_file_fails(self):
        train = self.table("t.csv", [[["a", "b"][i % 2], "%d.5" % i] for i in range(10)])
        val = self.table("v.csv", [["a", "1.5"], ["c", "2.5"]])
        with self.assertRaises(preprocess.CsvError) as caught:
            preprocess.prepare(args(train, validation=val, test_split=0), "classification", self.dir, "t")
        self.assertIn("v.csv: line 2, column 1", str(caught.exception))

    def test_regression_needs_a_numeric_target(self):
        with self.assertRaises(preprocess.CsvError) as caught:
            self.prepare([["1.5", "2.5"], ["x", "3.5"], ["2.5", "1.5"]])
        self.assertIn("line 2, column 1", str(caught.exception))

    def test_text_in_a_numeric_column_of_a_validation_file_fails(self):
        train = self.table("t.csv", [[str(i), "%d.5" % i] for i in range(10)])
        val = self.table("v.csv", [["1", "2.5"], ["0", "oops"]])
        with self.assertRaises(preprocess.CsvError) as caught:
            preprocess.prepare(args(train, validation=val, test_split=0), "regression", self.dir, "t")
        self.assertIn("v.csv: line 2, column 2", str(caught.exception))


class WithoutPreprocess(Tmp):
    def test_columns_must_be_numeric(self):
        path = self.table("t.csv", [["1", "2.5", "a"], ["0", "1.5", "4"], ["1", "0.5", "b"]])
        with self.assertRaises(preprocess.CsvError) as caught:
            preprocess.prepare(args(path, preprocess_=False), "classification", self.dir, "t")
        self.assertIn("line 1, column 3", str(caught.exception))
        self.assertIn("--preprocess", str(caught.exception))

    def test_classes_must_be_indices(self):
        path = self.table("t.csv", [["1", "2.5"], ["0.5", "1.5"], ["1", "0.5"]])
        with self.assertRaises(preprocess.CsvError) as caught:
            preprocess.prepare(args(path, preprocess_=False), "classification", self.dir, "t")
        self.assertIn("line 2, column 1", str(caught.exception))

    def test_blanks_stay_missing_for_xgboost_and_become_the_mean_otherwise(self):
        path = self.table("t.csv", [["1", "2.0"], ["0", ""], ["1", "4.0"]])
        kept = preprocess.prepare(args(path, preprocess_=False), "classification", self.dir, "t", keep_missing=True)
        self.assertTrue(kept.splits["training"].num[1, 0] != kept.splits["training"].num[1, 0])  # NaN
        filled = preprocess.prepare(args(path, preprocess_=False), "classification", self.dir, "t")
        self.assertEqual(float(filled.splits["training"].num[1, 0]), 3.0)
        self.assertFalse(os.path.exists(self.path("metadata.json")))  # written with --preprocess only


if __name__ == "__main__":
    unittest.main()
