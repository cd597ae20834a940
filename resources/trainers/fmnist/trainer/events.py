# SPDX-License-Identifier: GPL-2.0-or-later
"""A minimal TensorBoard event-file writer (scalars only), without tensorflow or tensorboard.

Debian ships neither, so ``torch.utils.tensorboard`` cannot be imported there. The file is
what TensorBoard's ``EventFileWriter`` and PyTorch's ``SummaryWriter`` write:

* TFRecord framing per record: u64 LE length, u32 LE masked CRC-32C of those 8 bytes, the
  data, u32 LE masked CRC-32C of the data; mask(c) = ((c >> 15) | (c << 17)) + 0xa282ead8.
* Each record is a serialized ``tensorflow.Event`` (tensorflow/core/util/event.proto):
  wall_time = 1 (double), step = 2 (int64), file_version = 3 (string), summary = 5 (Summary);
  ``Summary`` (summary.proto) has value = 1 (repeated Value); ``Value`` has tag = 1 (string),
  simple_value = 2 (float). The first record carries file_version "brain.Event:2".
* File name ``events.out.tfevents.<10-digit unix time>.<host>.<pid>.<uid>``.
"""

import os
import socket
import struct
import threading
import time

_CRC32C_POLY = 0x82F63B78  # Castagnoli, reflected


def _make_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _CRC32C_POLY if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _make_table()


def crc32c(data):
    crc = 0xFFFFFFFF
    table = _TABLE
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(n):
    if n < 0:
        n += 1 << 64  # int64 fields encode negatives as ten-byte two's complement
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _length_delimited(field, payload):
    return _varint((field << 3) | 2) + _varint(len(payload)) + payload


def encode_event(wall_time, step=0, file_version=None, scalars=None):
    """Serializes one ``Event``; ``scalars`` is an iterable of (tag, value) pairs."""
    out = bytearray(b"\x09" + struct.pack("<d", wall_time))  # field 1, wire type 1 (64-bit)
    if step:
        out += b"\x10" + _varint(int(step))  # field 2, varint
    if file_version is not None:
        out += _length_delimited(3, file_version.encode("utf-8"))
    if scalars:
        summary = bytearray()
        for tag, value in scalars:
            v = _length_delimited(1, tag.encode("utf-8")) + b"\x15" + struct.pack("<f", float(value))
            summary += _length_delimited(1, v)
        out += _length_delimited(5, bytes(summary))
    return bytes(out)


def frame_record(data):
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


class EventFileWriter:
    """Appends scalar summaries to a new event file in ``logdir``; every write is flushed so
    a reader tailing the file (the executor) sees points as they happen."""

    _uid_lock = threading.Lock()
    _next_uid = 0

    def __init__(self, logdir):
        os.makedirs(logdir, exist_ok=True)
        with EventFileWriter._uid_lock:
            uid = EventFileWriter._next_uid
            EventFileWriter._next_uid += 1
        now = time.time()
        name = "events.out.tfevents.%010d.%s.%d.%d" % (int(now), socket.gethostname(), os.getpid(), uid)
        self.path = os.path.join(logdir, name)
        self._file = open(self.path, "ab")
        self._write(encode_event(now, file_version="brain.Event:2"))

    def _write(self, event):
        self._file.write(frame_record(event))
        self._file.flush()

    def add_scalars(self, step, scalars, wall_time=None):
        """Writes one Event at ``step`` holding every (tag, value) of ``scalars``."""
        self._write(encode_event(wall_time if wall_time is not None else time.time(), step=step,
                                 scalars=list(scalars)))

    def add_scalar(self, tag, value, step, wall_time=None):
        self.add_scalars(step, [(tag, value)], wall_time)

    def close(self):
        if self._file:
            self._file.close()
            self._file = None
