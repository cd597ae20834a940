# SPDX-License-Identifier: GPL-2.0-or-later
"""prediction_server's protocol under hostile requests (issue 42, items 7 and 10): a request line nested deeper than
the decoder goes, an instance deeper than --max-depth, and an answer longer than --max-answer-bytes are each that
request's error, answered with the request's id; the node process reads the next line and answers it."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import support

from trainyard_algorithms import prediction_server


class Doubler:
    @classmethod
    def from_path(cls, model_dir):
        return cls()

    def predict(self, instances, **kwargs):
        return [("x" * x["big"]) if isinstance(x, dict) else 2 * x for x in instances]


class ListDoubler:
    """Answers each list instance doubled: a custom routine whose answers are scores (explanations' custom path)."""
    @classmethod
    def from_path(cls, model_dir):
        return cls()

    def predict(self, instances, **kwargs):
        return [[2 * v for v in x] for x in instances]


class NeverLoads:
    """A routine whose load never ends (a model stuck in its imports): only the executor's going can end the node."""
    @classmethod
    def from_path(cls, model_dir):
        import threading
        threading.Event().wait()


class CountingLinear:
    """A framework-like predictor (rows independent) that counts its calls: 10·x₀ + x₁ per row; a row [0, 0] fails
    with the model's own error, as an estimator's refusal of a bad value."""
    rows_independent = True

    def __init__(self):
        self.calls = []

    def predict(self, instances, **kwargs):
        self.calls.append(len(instances))
        for row in instances:
            if len(row) != 2:
                raise prediction_server.InstanceError(instances.index(row), "%d values, expected 2" % len(row))
            if row == [0, 0]:
                raise ValueError("Input contains zeros only")
        return [10 * a + b for a, b in instances]


class Batching(unittest.TestCase):
    """Requests waiting together share one predict call (issue 48) and are answered exactly as one by one."""

    def serve(self, predictor, lines):
        read_fd, write_fd = os.pipe()
        os.write(write_fd, "".join(line + "\n" for line in lines).encode())
        os.close(write_fd)
        import io
        out = io.StringIO()
        try:
            prediction_server.serve(predictor, None, out, 8, 100000, stdin_fd=read_fd)
        finally:
            os.close(read_fd)
        return [json.loads(line) for line in out.getvalue().splitlines()]

    def test_waiting_requests_share_one_call_and_keep_their_order(self):
        predictor = CountingLinear()
        lines = [json.dumps({"id": i, "instances": [[i, 1]] * (1 + i % 3)}) for i in range(1, 9)]
        answers = self.serve(predictor, lines)
        self.assertEqual([a["id"] for a in answers], list(range(1, 9)))
        for i, a in enumerate(answers, start=1):
            self.assertEqual(a["predictions"], [10 * i + 1] * (1 + i % 3))
        self.assertEqual(predictor.calls, [sum(1 + i % 3 for i in range(1, 9))])

    def test_a_failing_batch_is_answered_request_by_request(self):
        predictor = CountingLinear()
        lines = [json.dumps({"id": 1, "instances": [[1, 2]]}),
                 json.dumps({"id": 2, "instances": [[3, 4], [0, 0]]}),
                 json.dumps({"id": 3, "instances": [[5]]}),
                 "not json",
                 json.dumps({"id": 5, "instances": [[6, 7]]})]
        answers = self.serve(predictor, lines)
        self.assertEqual([a.get("id") for a in answers], [1, 2, 3, None, 5])
        self.assertEqual(answers[0]["predictions"], [12])
        self.assertEqual(answers[1]["instance"], 1)  # the zeros row, named within its own request
        self.assertIn("zeros", answers[1]["error"])
        self.assertEqual(answers[2]["instance"], 0)
        self.assertIn("expected 2", answers[2]["error"])
        self.assertIn("not a JSON request line", answers[3]["error"])
        self.assertEqual(answers[4]["predictions"], [67])

    def test_signature_names_and_custom_routines_are_not_mixed(self):
        predictor = CountingLinear()
        lines = [json.dumps({"id": 1, "instances": [[1, 1]]}),
                 json.dumps({"id": 2, "instances": [[2, 2]], "signature_name": "other"}),
                 json.dumps({"id": 3, "instances": [[3, 3]], "signature_name": "other"})]
        answers = self.serve(predictor, lines)
        self.assertEqual([a["predictions"] for a in answers], [[11], [22], [33]])
        self.assertEqual(predictor.calls, [1, 2])
        custom = Doubler()
        answers = self.serve(custom, [json.dumps({"id": k, "instances": [k]}) for k in (1, 2, 3)])
        self.assertEqual([a["predictions"] for a in answers], [[2], [4], [6]])

    def test_a_scikit_learn_model_answers_the_same_batched(self):
        import numpy as np
        from sklearn.linear_model import LogisticRegression
        rng = np.random.default_rng(7)
        X = rng.normal(size=(200, 4))
        model = LogisticRegression().fit(X, (X[:, 0] + X[:, 1] > 0).astype(int))
        predictor = prediction_server.ArrayPredictor("estimator", model)
        rows = X[:20].tolist()
        alone = [predictor.predict([row])[0] for row in rows]
        answers = self.serve(predictor, [json.dumps({"id": k, "instances": [row]}) for k, row in enumerate(rows)])
        self.assertEqual([a["predictions"][0] for a in answers], alone)


class ProtocolFunctions(unittest.TestCase):
    def test_depth_counts_without_recursion(self):
        self.assertEqual(prediction_server.depth(1, 64), 0)
        # Flat lists (the fast path) and the lists it must not take: a nested list or object anywhere, or a type a
        # decoder does not give.
        self.assertEqual(prediction_server.depth([], 64), 1)
        self.assertEqual(prediction_server.depth([1, 2.5, "a", True, None], 64), 1)
        self.assertEqual(prediction_server.depth([1, 2.5, [3]], 64), 2)
        self.assertEqual(prediction_server.depth([1, {"a": 1}], 64), 2)
        self.assertEqual(prediction_server.depth([1, ({"a": [1]},)], 64), 1)  # a tuple is not walked, as before
        self.assertEqual(prediction_server.depth([1, 2], 0), 1)
        self.assertEqual(prediction_server.depth([[1], {"a": [2]}], 64), 3)
        deep = []
        for _ in range(100000):  # far past the interpreter's recursion limit
            deep = [deep]
        self.assertEqual(prediction_server.depth(deep, 64), 65)

    def test_a_line_deeper_than_the_decoder_is_answered_with_its_id(self):
        line = '{"id": 7, "instances": [' + "[" * 100000 + "]" * 100000 + "]}"
        request, refused = prediction_server.decode_request(line, 64)
        self.assertIsNone(request)
        self.assertEqual(refused["id"], 7)
        self.assertIn("not a JSON request line", refused["error"])

    def test_an_instance_deeper_than_the_limit_is_its_error(self):
        line = json.dumps({"id": 3, "instances": [[1.0], [[[[1.0]]]]]})
        request, refused = prediction_server.decode_request(line, 3)
        self.assertIsNone(request)
        self.assertEqual(refused, {"id": 3, "instance": 1,
                                   "error": "the instance nests lists or objects more than 3 levels deep, the most a "
                                            "prediction takes"})

    def test_an_answer_over_the_cap_is_an_error(self):
        text = prediction_server.encode_answer({"id": 4, "predictions": ["x" * 1000]}, 500)
        answer = json.loads(text)
        self.assertEqual(answer["id"], 4)
        self.assertIn("more than the 500 a prediction may answer", answer["error"])


class NodeProcess(unittest.TestCase):
    """The real node process: one bad line of each kind, then a good one; it answers every line and keeps running."""

    def test_node_survives_hostile_requests(self):
        with tempfile.TemporaryDirectory() as model_dir:
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([support.PACKAGE_DIR, os.path.dirname(__file__)]))
            node = subprocess.Popen(
                [support.PYTHON, "-m", "trainyard_algorithms.prediction_server", "--model-dir", model_dir,
                 "--prediction-class", "test_prediction_protocol.Doubler", "--max-depth", "8",
                 "--max-answer-bytes", "10000"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
            try:
                ready = json.loads(node.stdout.readline())
                self.assertTrue(ready["ready"], ready)
                lines = [
                    '{"id": 1, "instances": [' + "[" * 5000 + "]" * 5000 + "]}",
                    json.dumps({"id": 2, "instances": [[[[[[[[[[1]]]]]]]]]]}),
                    json.dumps({"id": 3, "instances": [{"big": 20000}]}),
                    "not json at all",
                    json.dumps({"id": 5, "instances": [1, 2]}),
                ]
                node.stdin.write("".join(line + "\n" for line in lines))
                node.stdin.flush()
                answers = [json.loads(node.stdout.readline()) for _ in lines]
                self.assertEqual([a.get("id") for a in answers], [1, 2, 3, None, 5])
                for answer in answers[:4]:
                    self.assertIn("error", answer)
                self.assertEqual(answers[4]["predictions"], [2, 4])
                self.assertIsNone(node.poll())
            finally:
                node.stdin.close()
                node.wait(30)

    def test_node_explains_and_refuses_what_it_cannot(self):
        # The explain request (issue 47): the Doubler's score is 2x, so with baseline 0 each instance's one feature
        # is worth 2x; a folder without a baseline is an "explanation" error; the node answers the next line.
        with tempfile.TemporaryDirectory() as model_dir:
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([support.PACKAGE_DIR, os.path.dirname(__file__)]))
            node = subprocess.Popen(
                [support.PYTHON, "-m", "trainyard_algorithms.prediction_server", "--model-dir", model_dir,
                 "--prediction-class", "test_prediction_protocol.ListDoubler"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
            try:
                self.assertTrue(json.loads(node.stdout.readline())["ready"])
                node.stdin.write(json.dumps({"id": 1, "instances": [[3.0]], "explain": {"method": "sampledShapley",
                                                                                        "numPaths": 2}}) + "\n")
                node.stdin.flush()
                refused = json.loads(node.stdout.readline())
                self.assertEqual(refused["id"], 1)
                self.assertTrue(refused.get("explanation"), refused)
                self.assertIn("explanation_metadata.json", refused["error"])
                with open(os.path.join(model_dir, "explanation_metadata.json"), "w") as f:
                    json.dump({"inputs": {"x": {"input_baselines": [0.0]}}}, f)
                # The baseline is read once, at the first explain request: a new node sees the file.
            finally:
                node.stdin.close()
                node.wait(30)
            node = subprocess.Popen(
                [support.PYTHON, "-m", "trainyard_algorithms.prediction_server", "--model-dir", model_dir,
                 "--prediction-class", "test_prediction_protocol.ListDoubler"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
            try:
                self.assertTrue(json.loads(node.stdout.readline())["ready"])
                node.stdin.write('{"id":2,"explain":{"method":"sampledShapley","numPaths":2},"instances":[[3.0]]}\n')
                node.stdin.write(json.dumps({"id": 3, "instances": [[1.0]]}) + "\n")
                node.stdin.flush()
                explained = json.loads(node.stdout.readline())
                entry = explained["explanations"][0]["attributions_by_label"][0]
                self.assertEqual(entry["attributions"], {"x": 6.0})
                self.assertEqual((entry["example_score"], entry["baseline_score"]), (6.0, 0.0))
                self.assertEqual(json.loads(node.stdout.readline())["predictions"], [[2.0]])
            finally:
                node.stdin.close()
                node.wait(30)

    def test_node_loading_ends_when_executor_goes(self):
        # An executor killed while a node still loads (bubblewrap's death signal not yet set): the node's stdin ends,
        # and the node must end with it rather than finish loading first.
        with tempfile.TemporaryDirectory() as model_dir:
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([support.PACKAGE_DIR, os.path.dirname(__file__)]))
            node = subprocess.Popen(
                [support.PYTHON, "-m", "trainyard_algorithms.prediction_server", "--model-dir", model_dir,
                 "--prediction-class", "test_prediction_protocol.NeverLoads"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
            node.stdin.close()
            try:
                self.assertEqual(node.wait(60), 0)
                self.assertEqual(node.stdout.read(), "")  # no ready line: it never loaded
            finally:
                if node.poll() is None:
                    node.kill()
                    node.wait()
                node.stdout.close()


class WarmSpare(unittest.TestCase):
    """A warm spare (issue 48's cold start): it imports its framework and says so, takes a model folder through its
    stdin (the adopt line, then the files' bytes) into its own temporary folder, loads it and answers as any node;
    a path outside the folder is refused; stdin's end before an adopt line ends it quietly."""

    def spare(self):
        # Its own TMPDIR: where the model's copy goes, and what must be empty again after it exits.
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(os.rmdir, self.tmp)
        env = dict(os.environ, PYTHONPATH=support.PACKAGE_DIR, TMPDIR=self.tmp)
        node = subprocess.Popen(
            [support.PYTHON, "-m", "trainyard_algorithms.prediction_server", "--spare", "--framework", "SCIKIT_LEARN"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.addCleanup(node.wait, 30)
        self.addCleanup(node.stdin.close)
        first = json.loads(node.stdout.readline())
        self.assertTrue(first["spare"], first)
        self.assertGreater(first["importSeconds"], 0)
        return node

    def test_a_spare_takes_a_model_folder_and_serves_it(self):
        import joblib
        import numpy as np
        from sklearn.linear_model import LogisticRegression
        with tempfile.TemporaryDirectory() as folder:
            x = np.array([[0.0], [1.0], [2.0], [3.0]])
            joblib.dump(LogisticRegression().fit(x, [0, 0, 1, 1]), os.path.join(folder, "model.joblib"))
            with open(os.path.join(folder, "model.joblib"), "rb") as f:
                blob = f.read()
            node = self.spare()
            adopt = {"adopt": {"modelDir": folder, "files": [["model.joblib", len(blob)], ["assets/notes.txt", 6]]}}
            node.stdin.write(json.dumps(adopt).encode() + b"\n" + blob + b"a\nb\nc\n")
            node.stdin.write(json.dumps({"id": 1, "instances": [[0.0], [3.0]]}).encode() + b"\n")
            node.stdin.flush()
            ready = json.loads(node.stdout.readline())
            self.assertTrue(ready["ready"] and ready["spare"], ready)
            self.assertEqual(ready["importSeconds"], 0.0)  # imported before it was needed
            self.assertGreaterEqual(ready["copySeconds"], 0)
            self.assertEqual(json.loads(node.stdout.readline())["predictions"], [0, 1])
            self.assertEqual(len(os.listdir(self.tmp)), 1)  # the model's copy
            node.stdin.close()
            self.assertEqual(node.wait(30), 0)
            self.assertEqual(os.listdir(self.tmp), [])  # removed at exit (a sandbox's /tmp goes anyway)
            node.stdout.close()

    def test_a_path_outside_the_folder_is_refused(self):
        node = self.spare()
        node.stdin.write(json.dumps({"adopt": {"modelDir": "/m", "files": [["../escape", 1]]}}).encode() + b"\nx")
        node.stdin.flush()
        refused = json.loads(node.stdout.readline())
        self.assertFalse(refused["ready"])
        self.assertIn("not a path inside the model folder", refused["error"])
        node.stdin.close()
        self.assertEqual(node.wait(30), 3)

    def test_a_spare_let_go_ends_quietly(self):
        node = self.spare()
        node.stdin.close()
        self.assertEqual(node.wait(30), 0)
        self.assertEqual(node.stdout.read(), b"")
        node.stdout.close()

if __name__ == "__main__":
    unittest.main()
