# SPDX-License-Identifier: GPL-2.0-or-later
"""GPU choice and its fallbacks. Debian's python3-xgboost and python3-torch are CPU builds, so on a Debian host
every GPU request falls back with a log line that says why; on a CUDA build with an accelerator the same jobs log
the device instead (packaging/gpu-check.sh covers a lent GPU machine)."""

import unittest

import support

WINE = "--training_data_path=" + support.data("wine.csv")
GPU_IMAGE = "gcr.io/cloud-ml-algos/wide_deep_learner_gpu:latest"


def cuda_builds():
    import torch
    import xgboost
    return bool(xgboost.build_info().get("USE_CUDA")), torch.cuda.is_available()


class GpuFallback(unittest.TestCase):
    def test_gpu_image_without_an_accelerator_trains_on_the_cpu(self):
        job = support.run("wide_deep", ["--preprocess", WINE, "--model_type=classification", "--max_steps=5"],
                          extra_env={"TRAINYARD_ALGORITHM_IMAGE": GPU_IMAGE, "CUDA_VISIBLE_DEVICES": ""})
        self.assertEqual(job.rc, 0, job.describe())
        self.assertIn("GPU: %s asks for a GPU but the job has no accelerator" % GPU_IMAGE, job.stdout)

    def test_gpu_image_with_an_accelerator(self):
        _, torch_cuda = cuda_builds()
        job = support.run("wide_deep", ["--preprocess", WINE, "--model_type=classification", "--max_steps=5"],
                          extra_env={"TRAINYARD_ALGORITHM_IMAGE": GPU_IMAGE, "CUDA_VISIBLE_DEVICES": "0"})
        self.assertEqual(job.rc, 0, job.describe())
        self.assertIn("GPU: training on" if torch_cuda else "sees no CUDA device", job.stdout)

    def test_xgboost_gpu_hist(self):
        xgb_cuda, _ = cuda_builds()
        job = support.run("xgboost", ["--preprocess", WINE, "--objective=multi:softprob", "--num_boost_round=2",
                                      "--tree_method=gpu_hist"], extra_env={"CUDA_VISIBLE_DEVICES": "0"})
        self.assertEqual(job.rc, 0, job.describe())
        self.assertIn("tree_method gpu_hist on CUDA" if xgb_cuda else "is built without CUDA", job.stdout)
        if not xgb_cuda:
            self.assertIn("tree_method=hist", job.stdout)


if __name__ == "__main__":
    unittest.main()
