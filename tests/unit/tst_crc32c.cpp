// SPDX-License-Identifier: GPL-2.0-or-later
#include "crc32c.h"

#include <QRandomGenerator>
#include <QTest>

using namespace Trainyard::Formats;

class TestCrc32c : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void knownVectors_data();
    void knownVectors();
    void extendEqualsWhole_data();
    void extendEqualsWhole();
    void hardwareMatchesPortable();
    void prefixedMatchesPortable();
    void mask();
};

void TestCrc32c::knownVectors_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<quint32>("expected");

    // RFC 3720 (iSCSI) appendix B.4, the same vectors as LevelDB's crc32c_test.
    QByteArray ascending(32, '\0');
    QByteArray descending(32, '\0');
    for (int i = 0; i < 32; ++i) {
        ascending[i] = char(i);
        descending[i] = char(31 - i);
    }
    const unsigned char readPdu[48] = { 0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00,
        0x18, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };

    QTest::addRow("32 zeros") << QByteArray(32, '\0') << 0x8a9136aau;
    QTest::addRow("32 0xff") << QByteArray(32, '\xff') << 0x62a8ab43u;
    QTest::addRow("ascending") << ascending << 0x46dd794eu;
    QTest::addRow("descending") << descending << 0x113fdb5cu;
    QTest::addRow("iSCSI read PDU") << QByteArray(reinterpret_cast<const char*>(readPdu), 48) << 0xd9963a56u;
    QTest::addRow("check string") << QByteArray("123456789") << 0xe3069283u;
    QTest::addRow("empty") << QByteArray() << 0u;
}

void TestCrc32c::knownVectors()
{
    QFETCH(QByteArray, data);
    QFETCH(quint32, expected);
    QCOMPARE(crc32cPortable(data.constData(), size_t(data.size())), expected);
    QCOMPARE(crc32c(data.constData(), size_t(data.size())), expected);
    if (crc32cHardwareAvailable())
        QCOMPARE(crc32cHardware(data.constData(), size_t(data.size())), expected);
}

void TestCrc32c::extendEqualsWhole_data()
{
    QTest::addColumn<int>("split");
    for (int split : { 0, 1, 7, 8, 9, 31, 32 })
        QTest::addRow("split %d", split) << split;
}

void TestCrc32c::extendEqualsWhole()
{
    QFETCH(int, split);
    const QByteArray data = QByteArrayLiteral("hello world, this is thirty-two!");
    QCOMPARE(data.size(), 32);
    const quint32 whole = crc32c(data.constData(), 32);
    const quint32 head = crc32c(data.constData(), size_t(split));
    QCOMPARE(crc32c(data.constData() + split, size_t(32 - split), head), whole);
    const quint32 headPortable = crc32cPortable(data.constData(), size_t(split));
    QCOMPARE(crc32cPortable(data.constData() + split, size_t(32 - split), headPortable), whole);
}

void TestCrc32c::hardwareMatchesPortable()
{
    if (!crc32cHardwareAvailable())
        QSKIP("this CPU has no SSE4.2 crc32 instruction");
    // Random lengths and misaligned starts exercise the byte head, the 8-byte body and the tail.
    QRandomGenerator rng(4242);
    QByteArray buffer(4096 + 16, '\0');
    for (auto& c : buffer)
        c = char(rng.generate());
    for (int i = 0; i < 500; ++i) {
        const int offset = int(rng.bounded(16));
        const int length = int(rng.bounded(4096));
        const char* p = buffer.constData() + offset;
        const quint32 init = rng.generate();
        QCOMPARE(crc32cHardware(p, size_t(length), init), crc32cPortable(p, size_t(length), init));
    }
}

// crc32cSse42Prefixed(): every short length (each n % 8), longer ones, misaligned starts, and random bytes
// before the message (they must not count).
void TestCrc32c::prefixedMatchesPortable()
{
#ifdef TRAINYARD_CRC32C_SSE42
    if (!crc32cHardwareAvailable())
        QSKIP("this CPU has no SSE4.2 crc32 instruction");
    QCOMPARE(Detail::zeroPrefixStates.state[0], 0xFFFFFFFFu);
    QRandomGenerator rng(1717);
    QByteArray buffer(512, '\0');
    for (int round = 0; round < 20; ++round) {
        for (auto& c : buffer)
            c = char(rng.generate());
        for (int n = 0; n <= 300; ++n) {
            const char* p = buffer.constData() + 8 + int(rng.bounded(64)); // 8 readable bytes before p
            QCOMPARE(crc32cSse42Prefixed(p, size_t(n)), crc32cPortable(p, size_t(n)));
        }
    }
    const QByteArray check = QByteArrayLiteral("xxxxxxxx123456789");
    QCOMPARE(crc32cSse42Prefixed(check.constData() + 8, 9), 0xe3069283u);
#else
    QSKIP("not an x86-64 build");
#endif
}

void TestCrc32c::mask()
{
    // Values from LevelDB's crc32c_test (Mask): masking changes the value, twice masking again,
    // and unmask inverts.
    const quint32 crc = crc32c("foo", 3);
    QVERIFY(crc != maskCrc(crc));
    QVERIFY(crc != maskCrc(maskCrc(crc)));
    QCOMPARE(unmaskCrc(maskCrc(crc)), crc);
    QCOMPARE(unmaskCrc(unmaskCrc(maskCrc(maskCrc(crc)))), crc);
    QCOMPARE(maskCrc(0u), 0xa282ead8u);
}

QTEST_GUILESS_MAIN(TestCrc32c)
#include "tst_crc32c.moc"
