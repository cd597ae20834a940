# SPDX-License-Identifier: GPL-2.0-or-later
"""Fashion-MNIST from the files Debian's ``dataset-fashion-mnist`` installs.

The package ships the original distribution unchanged: four gzip'd IDX files in
/usr/share/datasets/fashion-mnist (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,
t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz). IDX (LeCun's MNIST format) is a
big-endian header -- two zero bytes, a type code (0x08 = unsigned byte), the number of
dimensions, then one u32 per dimension -- followed by the raw row-major data.
Nothing is downloaded.
"""

import gzip
import os

import numpy as np
import torch

DEFAULT_DATA_DIR = "/usr/share/datasets/fashion-mnist"

# Mean and standard deviation of the training pixels scaled to [0, 1].
PIXEL_MEAN = 0.2860
PIXEL_STD = 0.3530

_FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}


def _open(path):
    if os.path.exists(path + ".gz"):
        return gzip.open(path + ".gz", "rb")
    if os.path.exists(path):
        return open(path, "rb")
    raise FileNotFoundError(
        "Fashion-MNIST file %s(.gz) not found; install Debian's dataset-fashion-mnist or pass --data-dir" % path)


def read_idx(path):
    """Reads one IDX file (optionally gzip'd) into a numpy array of unsigned bytes.

    Raises ValueError when the header is not an unsigned-byte IDX header or the data is short.
    """
    with _open(path) as f:
        raw = f.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise ValueError("%s: not an IDX file (bad magic)" % path)
    if raw[2] != 0x08:
        raise ValueError("%s: IDX type 0x%02x is not unsigned byte" % (path, raw[2]))
    ndim = raw[3]
    header = 4 + 4 * ndim
    dims = tuple(int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim))
    count = int(np.prod(dims)) if dims else 0
    if len(raw) - header < count:
        raise ValueError("%s: %d data bytes, header promises %d" % (path, len(raw) - header, count))
    return np.frombuffer(raw, dtype=np.uint8, count=count, offset=header).reshape(dims)


def load(split, data_dir=DEFAULT_DATA_DIR, limit=0):
    """Returns (images, labels) of a split ("train" or "test").

    images: float32 tensor [N, 784], normalised with the training mean/std;
    labels: int64 tensor [N]. ``limit`` > 0 keeps only the first ``limit`` examples.
    """
    images_name, labels_name = _FILES[split]
    images = read_idx(os.path.join(data_dir, images_name))
    labels = read_idx(os.path.join(data_dir, labels_name))
    if images.shape[0] != labels.shape[0]:
        raise ValueError("%s: %d images but %d labels" % (split, images.shape[0], labels.shape[0]))
    if limit > 0:
        images, labels = images[:limit], labels[:limit]
    x = torch.from_numpy(images.reshape(images.shape[0], -1).astype(np.float32))
    x.mul_(1.0 / 255.0).sub_(PIXEL_MEAN).div_(PIXEL_STD)
    y = torch.from_numpy(labels.astype(np.int64))
    return x, y
