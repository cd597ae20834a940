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


class ProtocolFunctions(unittest.TestCase):
    def test_depth_counts_without_recursion(self):
        self.assertEqual(prediction_server.depth(1, 64), 0)
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


if __name__ == "__main__":
    unittest.main()
