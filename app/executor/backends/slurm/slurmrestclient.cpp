// SPDX-License-Identifier: GPL-2.0-or-later
#include "slurmrestclient.h"

#include "slurmcodec.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QIODevice>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QTimer>
#include <QUrlQuery>

#include <cstring>

Q_LOGGING_CATEGORY(lcSlurm, "trainyard.executor")

namespace Trainyard::Slurm {

namespace {

// What a request's transport gives the call that made it: the parsed reply and its errors[].
struct Reply {
    int httpStatus = 0;
    QJsonObject json;
    QList<RestError> errors;
    QList<RestWarning> warnings;
};

struct Call {
    QByteArray verb; // GET, POST, DELETE
    QString path; // after the version prefix ("/ping"), or the whole path when !versioned
    QUrlQuery query;
    bool versioned = true;
    bool noRequest = false; // only waits for the version (discoverVersion)
    std::function<QJsonObject(ApiVersion)> body; // unset: no body
    QString what; // for messages: "listing the nodes"
    qint64 jobId = 0; // the job the call is about; 0: none
    QString usedToken;
    bool retried = false;
    std::function<void(const Result<Reply>&)> done;
};

// A request body Qt's HTTP layer cannot read twice. Qt sends a request again (up to three times) when the
// connection closes before the answer; for a job submission that could create the job twice, as slurmrestd may
// have created it before the connection dropped. With this body Qt fails the request (ContentReSendError)
// instead of sending it again. GETs keep Qt's resending: reading again is harmless.
class OneShotBody : public QIODevice {
public:
    OneShotBody(const QByteArray& data, QObject* parent)
        : QIODevice(parent)
        , m_data(data)
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    bool reset() override { return false; }
    qint64 bytesAvailable() const override { return m_data.size() - m_pos + QIODevice::bytesAvailable(); }

protected:
    qint64 readData(char* out, qint64 max) override
    {
        const qint64 n = qMin(max, qint64(m_data.size()) - m_pos);
        if (n <= 0)
            return -1;
        std::memcpy(out, m_data.constData() + m_pos, size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    QByteArray m_data;
    qint64 m_pos = 0;
};

// Before its exp, a minted token is used until this much is left, so that no request carries one that
// expires on the way.
constexpr qint64 tokenMarginSeconds = 60;

QString seconds(std::chrono::milliseconds ms)
{
    return QString::number(double(ms.count()) / 1000.0, 'g', 3);
}

QString errorList(const QList<RestError>& errors)
{
    QStringList parts;
    for (const RestError& e : errors) {
        if (e.number == 9001 && errors.size() > 1)
            continue; // "Failure during parsing": says less than the entries before it
        parts.append(
            e.number != 0 && e.number != -1 ? QStringLiteral("%1 [%2]").arg(e.text()).arg(e.number) : e.text());
    }
    return parts.join(QLatin1String("; "));
}

} // namespace

struct SlurmRestClient::Private {
    SlurmRestClient* q;
    ClusterConfig cluster;
    QNetworkAccessManager* network;
    std::chrono::milliseconds requestTimeout { 30000 };
    std::chrono::milliseconds tokenCommandTimeout { 30000 };

    std::optional<ApiVersion> version;
    bool discovering = false;
    QList<Call> waitingForVersion;

    QString token;
    std::optional<QDateTime> tokenExpiry;
    QProcess* tokenProcess = nullptr;
    QList<std::function<void(const QString&, const std::optional<ClientError>&)>> waitingForToken;

    QSet<QNetworkReply*> inFlight;

    QString where() const { return QStringLiteral("slurmrestd at %1").arg(cluster.restUrl.toString()); }

    ClientError error(
        ClientError::Kind kind, const QString& message, int httpStatus = 0, const QList<RestError>& errors = {}) const
    {
        return ClientError { kind, httpStatus, errors, message };
    }

    // Runs `done` later from the event loop, unless `context` is gone by then.
    template <typename T>
    void deliver(const QPointer<QObject>& context, const Callback<T>& done, const Result<T>& result)
    {
        QMetaObject::invokeMethod(
            q,
            [context, done, result] {
                if (context)
                    done(result);
            },
            Qt::QueuedConnection);
    }

    // Starts `call`; `decode` turns its reply into the caller's value, `done` gets that value later.
    template <typename T>
    void run(Call call, QObject* context, Callback<T> done, std::function<Result<T>(const Reply&)> decode)
    {
        QPointer<QObject> guard(context ? context : q);
        call.done = [this, guard, done, decode](const Result<Reply>& reply) {
            if (!guard)
                return;
            deliver<T>(guard, done, reply.ok() ? decode(reply.value()) : Result<T>(reply.error()));
        };
        start(std::move(call));
    }

    void start(Call call)
    {
        if (call.versioned && !version && cluster.restVersion)
            version = cluster.restVersion;
        if (call.versioned && !version) {
            waitingForVersion.append(std::move(call));
            if (!discovering)
                discover();
            return;
        }
        if (call.noRequest) {
            call.done(Reply {});
            return;
        }
        withToken(std::move(call), false);
    }

    void discover()
    {
        discovering = true;
        Call d;
        d.verb = "GET";
        d.path = QStringLiteral("/openapi/v3");
        d.versioned = false;
        d.what = QStringLiteral("reading its API versions (GET /openapi/v3)");
        d.done = [this](const Result<Reply>& reply) {
            discovering = false;
            std::optional<ClientError> failure;
            if (!reply.ok()) {
                failure = reply.error();
            } else if (reply->httpStatus >= 400 || !reply->errors.isEmpty()) {
                failure = slurmError(QStringLiteral("reading its API versions (GET /openapi/v3)"), reply.value());
            } else {
                const QStringList announced = Codec::announcedVersions(reply->json);
                version = Codec::newestSupported(announced);
                if (!version) {
                    QStringList ours;
                    for (ApiVersion v : supportedApiVersions())
                        ours.append(apiVersionName(v));
                    failure = error(ClientError::Kind::UnsupportedVersion,
                        QStringLiteral("%1 offers the Slurm REST API versions %2, none of which this client speaks "
                                       "(%3); load one with slurmrestd -s openapi/%4")
                            .arg(where(),
                                announced.isEmpty() ? QStringLiteral("(none)") : announced.join(QLatin1String(", ")),
                                ours.join(QLatin1String(", ")), ours.first()));
                } else {
                    qCDebug(lcSlurm) << "slurm:" << cluster.name << "speaks" << apiVersionName(*version) << "of"
                                     << announced;
                }
            }
            const QList<Call> waiting = std::exchange(waitingForVersion, {});
            for (const Call& call : waiting) {
                if (failure)
                    call.done(*failure);
                else
                    start(call);
            }
        };
        withToken(std::move(d), false);
    }

    bool tokenIsCurrent() const
    {
        return !token.isEmpty()
            && (!tokenExpiry || QDateTime::currentDateTimeUtc().secsTo(*tokenExpiry) > tokenMarginSeconds);
    }

    // Gives `call` a token and sends it. `fresh`: the token `call` carried was refused, so a cached one is only
    // good when it is a different (newer) one.
    void withToken(Call call, bool fresh)
    {
        if (!cluster.token.isEmpty()) {
            call.usedToken = cluster.token;
            send(std::move(call));
            return;
        }
        if (tokenIsCurrent() && (!fresh || token != call.usedToken)) {
            call.usedToken = token;
            send(std::move(call));
            return;
        }
        waitingForToken.append([this, call](const QString& t, const std::optional<ClientError>& failure) mutable {
            if (failure) {
                call.done(*failure);
                return;
            }
            call.usedToken = t;
            send(std::move(call));
        });
        if (!tokenProcess)
            runTokenCommand();
    }

    void runTokenCommand()
    {
        tokenProcess = new QProcess(q);
        QProcess* process = tokenProcess;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (!cluster.slurmConf.isEmpty())
            env.insert(QStringLiteral("SLURM_CONF"), cluster.slurmConf);
        process->setProcessEnvironment(env);
        process->setProgram(QStringLiteral("/bin/sh"));
        process->setArguments({ QStringLiteral("-c"), cluster.tokenCommand });
        process->setStandardInputFile(QProcess::nullDevice());
        auto* timer = new QTimer(process);
        timer->setSingleShot(true);
        QObject::connect(timer, &QTimer::timeout, process, [process] {
            process->setProperty("trainyardTimedOut", true);
            process->kill();
        });
        QObject::connect(process, &QProcess::finished, q, [this, process] { tokenCommandEnded(process); });
        QObject::connect(process, &QProcess::errorOccurred, q, [this, process](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart)
                tokenCommandEnded(process);
        });
        qCDebug(lcSlurm) << "slurm:" << cluster.name << "running tokenCommand";
        timer->start(tokenCommandTimeout);
        process->start();
    }

    void tokenCommandEnded(QProcess* process)
    {
        if (process != tokenProcess)
            return;
        tokenProcess = nullptr;
        process->deleteLater();
        const QString command
            = QStringLiteral("tokenCommand of cluster '%1' (%2)").arg(cluster.name, cluster.tokenCommand);
        const QString stderrText = QString::fromLocal8Bit(process->readAllStandardError()).trimmed();
        const QString minted = Codec::tokenFromCommandOutput(process->readAllStandardOutput());
        std::optional<ClientError> failure;
        if (process->property("trainyardTimedOut").toBool()) {
            failure = error(ClientError::Kind::TokenCommand,
                QStringLiteral("%1 did not finish within %2 s").arg(command, seconds(tokenCommandTimeout)));
        } else if (process->error() == QProcess::FailedToStart) {
            failure = error(ClientError::Kind::TokenCommand,
                QStringLiteral("%1 could not start: %2").arg(command, process->errorString()));
        } else if (process->exitStatus() != QProcess::NormalExit || process->exitCode() != 0) {
            failure = error(ClientError::Kind::TokenCommand,
                QStringLiteral("%1 failed (%2)%3")
                    .arg(command,
                        process->exitStatus() == QProcess::NormalExit
                            ? QStringLiteral("exit code %1").arg(process->exitCode())
                            : QStringLiteral("it crashed"),
                        stderrText.isEmpty() ? QString()
                                             : QStringLiteral(": ") + stderrText.section(QLatin1Char('\n'), -1)));
        } else if (minted.isEmpty()) {
            failure = error(ClientError::Kind::TokenCommand,
                QStringLiteral("%1 printed no token (it should print SLURM_JWT=… or the token alone)").arg(command));
        }
        if (!failure) {
            token = minted;
            tokenExpiry = Codec::jwtExpiry(minted);
            qCDebug(lcSlurm) << "slurm:" << cluster.name << "minted a token, expires"
                             << tokenExpiry.value_or(QDateTime());
        }
        const auto waiting = std::exchange(waitingForToken, {});
        for (const auto& w : waiting)
            w(token, failure);
    }

    void send(Call call)
    {
        QUrl url = cluster.restUrl;
        url.setPath(cluster.restUrl.path() + (call.versioned ? Codec::pathPrefix(*version) : QString()) + call.path);
        if (!call.query.isEmpty())
            url.setQuery(call.query);
        QNetworkRequest request(url);
        request.setRawHeader("X-SLURM-USER-NAME", cluster.user.toUtf8());
        request.setRawHeader("X-SLURM-USER-TOKEN", call.usedToken.toUtf8());
        request.setRawHeader("Accept", "application/json");
        // slurmrestd speaks HTTP/1.1 only
        request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        QNetworkReply* reply = nullptr;
        if (call.body) {
            const QByteArray body = QJsonDocument(call.body(*version)).toJson(QJsonDocument::Compact);
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
            request.setHeader(QNetworkRequest::ContentLengthHeader, body.size());
            request.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
            auto* device = new OneShotBody(body, network);
            reply = network->sendCustomRequest(request, call.verb, device);
            device->setParent(reply);
        } else {
            reply = network->sendCustomRequest(request, call.verb);
        }
        inFlight.insert(reply);
        auto* timer = new QTimer(reply);
        timer->setSingleShot(true);
        QObject::connect(timer, &QTimer::timeout, reply, [reply] {
            reply->setProperty("trainyardTimedOut", true);
            reply->abort();
        });
        timer->start(requestTimeout);
        QElapsedTimer clock;
        clock.start();
        QObject::connect(reply, &QNetworkReply::finished, q, [this, reply, call, clock]() mutable {
            inFlight.remove(reply);
            reply->deleteLater();
            qCDebug(lcSlurm) << "slurm:" << call.verb << reply->url().toString() << "->"
                             << reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() << reply->error()
                             << clock.elapsed() << "ms";
            received(std::move(call), reply);
        });
    }

    void received(Call call, QNetworkReply* reply)
    {
        const QVariant statusAttribute = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        const int status = statusAttribute.toInt();
        const QNetworkReply::NetworkError netError = reply->error();
        if (reply->property("trainyardTimedOut").toBool()) {
            call.done(error(ClientError::Kind::Timeout,
                QStringLiteral("%1 did not answer within %2 s (%3)").arg(where(), seconds(requestTimeout), call.what)));
            return;
        }
        if (netError == QNetworkReply::ContentReSendError) {
            // the connection closed before the answer, and Qt may not send the body again (OneShotBody)
            call.done(error(ClientError::Kind::ConnectionClosed,
                QStringLiteral("%1 closed the connection (it may have crashed) while %2; the request was not sent "
                               "again, as slurmrestd may have acted on it")
                    .arg(where(), call.what)));
            return;
        }
        // Qt's network-layer errors are 1–99; HTTP error statuses come as 2xx–4xx codes with a body to read.
        if (!statusAttribute.isValid() || (netError > QNetworkReply::NoError && netError < 100)) {
            switch (netError) {
            case QNetworkReply::ConnectionRefusedError:
                call.done(error(ClientError::Kind::Unreachable,
                    QStringLiteral("%1 refused the connection (is slurmrestd running, on that port?)").arg(where())));
                return;
            case QNetworkReply::RemoteHostClosedError:
                call.done(error(ClientError::Kind::ConnectionClosed,
                    QStringLiteral("%1 closed the connection (it may have crashed) while %2").arg(where(), call.what)));
                return;
            case QNetworkReply::HostNotFoundError:
                call.done(error(ClientError::Kind::Unreachable,
                    QStringLiteral("%1: host %2 not found").arg(where(), cluster.restUrl.host())));
                return;
            default:
                call.done(error(ClientError::Kind::Unreachable,
                    QStringLiteral("%1 cannot be reached: %2").arg(where(), reply->errorString())));
                return;
            }
        }
        const QByteArray body = reply->readAll();
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
        if (!doc.isObject()) {
            const QString text = QString::fromUtf8(body.left(300)).trimmed();
            if (status == 401) {
                // slurmrestd's own check: a header missing, or not run with SLURM_JWT=daemon (recipe §6)
                authenticationFailed(std::move(call), status, {},
                    QStringLiteral("HTTP 401 %1 (is slurmrestd run with -a rest_auth/jwt and SLURM_JWT=daemon?)")
                        .arg(text));
                return;
            }
            call.done(error(status >= 400 ? ClientError::Kind::SlurmError : ClientError::Kind::BadReply,
                status >= 400
                    ? QStringLiteral("%1: %2 failed (HTTP %3): %4").arg(where(), call.what).arg(status).arg(text)
                    : QStringLiteral("%1 sent a reply that is not JSON while %2: %3")
                          .arg(where(), call.what, text.left(120)),
                status));
            return;
        }
        Reply r;
        r.httpStatus = status;
        r.json = doc.object();
        r.errors = Codec::decodeErrors(r.json);
        r.warnings = Codec::decodeWarnings(r.json);
        if (call.jobId != 0 && Codec::isNoSuchJob(r.errors)) {
            call.done(error(ClientError::Kind::NoSuchJob,
                QStringLiteral("%1 does not know job %2 (it never existed, or ended more than MinJobAge ago): %3")
                    .arg(where())
                    .arg(call.jobId)
                    .arg(errorList(r.errors)),
                status, r.errors));
            return;
        }
        if (Codec::isRefusedToken(status, r.errors)) {
            authenticationFailed(std::move(call), status, r.errors,
                QStringLiteral("%1 (a wrong or expired token, or slurmctld is not answering)")
                    .arg(errorList(r.errors)));
            return;
        }
        for (const RestWarning& w : std::as_const(r.warnings))
            qCInfo(lcSlurm) << "slurm:" << cluster.name << "warning while" << call.what << ":" << w.description;
        call.done(r);
    }

    void authenticationFailed(Call call, int status, const QList<RestError>& errors, const QString& reason)
    {
        if (!cluster.tokenCommand.isEmpty() && !call.retried) {
            qCInfo(lcSlurm) << "slurm:" << cluster.name << "token refused; minting a new one and trying again";
            call.retried = true;
            withToken(std::move(call), true);
            return;
        }
        QString expired;
        const std::optional<QDateTime> expiry = Codec::jwtExpiry(call.usedToken);
        if (expiry && *expiry <= QDateTime::currentDateTimeUtc())
            expired = QStringLiteral(", which expired at %1").arg(expiry->toString(Qt::ISODate));
        call.done(error(ClientError::Kind::Authentication,
            QStringLiteral("%1 refused user '%2''s token%3%4: %5")
                .arg(where(), cluster.user, expired,
                    call.retried ? QStringLiteral(" (also a freshly minted one)") : QString(), reason),
            status, errors));
    }

    ClientError slurmError(const QString& what, const Reply& r) const
    {
        const QString detail = r.errors.isEmpty() ? QStringLiteral("no reason given") : errorList(r.errors);
        return error(ClientError::Kind::SlurmError,
            QStringLiteral("%1: %2 failed (HTTP %3): %4").arg(where(), what).arg(r.httpStatus).arg(detail),
            r.httpStatus, r.errors);
    }

    // The decode step of the calls that return data: errors[] or an error status fail them, whatever the data.
    template <typename T>
    std::function<Result<T>(const Reply&)> decoder(
        const QString& what, std::function<std::optional<T>(const QJsonObject&, QString*)> decode)
    {
        return [this, what, decode](const Reply& r) -> Result<T> {
            if (r.httpStatus >= 400 || !r.errors.isEmpty())
                return slurmError(what, r);
            QString why;
            std::optional<T> value = decode(r.json, &why);
            if (!value)
                return error(ClientError::Kind::BadReply,
                    QStringLiteral("%1 sent a reply this client cannot read while %2: %3").arg(where(), what, why),
                    r.httpStatus);
            return *value;
        };
    }
};

SlurmRestClient::SlurmRestClient(const ClusterConfig& cluster, QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->cluster = cluster;
    d->network = new QNetworkAccessManager(this);
    // a cluster in the system proxy's reach still is not to be reached through it (loopback, cluster networks)
    d->network->setProxy(QNetworkProxy::NoProxy);
}

SlurmRestClient::~SlurmRestClient()
{
    // Aborting emits finished(): cut the replies off first, so that no call completes while the client dies.
    const QSet<QNetworkReply*> replies = d->inFlight;
    for (QNetworkReply* reply : replies) {
        QObject::disconnect(reply, nullptr, this, nullptr);
        reply->abort();
    }
    if (d->tokenProcess) {
        QObject::disconnect(d->tokenProcess, nullptr, this, nullptr);
        d->tokenProcess->kill();
        d->tokenProcess->waitForFinished(1000);
    }
}

const ClusterConfig& SlurmRestClient::cluster() const
{
    return d->cluster;
}

std::optional<ApiVersion> SlurmRestClient::apiVersion() const
{
    return d->version ? d->version : d->cluster.restVersion;
}

void SlurmRestClient::setRequestTimeout(std::chrono::milliseconds timeout)
{
    d->requestTimeout = timeout;
}

void SlurmRestClient::setTokenCommandTimeout(std::chrono::milliseconds timeout)
{
    d->tokenCommandTimeout = timeout;
}

void SlurmRestClient::discoverVersion(QObject* context, Callback<ApiVersion> done)
{
    Call call;
    call.noRequest = true;
    d->run<ApiVersion>(std::move(call), context, std::move(done), [this](const Reply&) { return *d->version; });
}

void SlurmRestClient::ping(QObject* context, Callback<QList<ControllerPing>> done)
{
    Call call;
    call.verb = "GET";
    call.path = QStringLiteral("/ping");
    call.what = QStringLiteral("pinging slurmctld");
    auto decode = d->decoder<QList<ControllerPing>>(call.what, Codec::decodePing);
    d->run<QList<ControllerPing>>(std::move(call), context, std::move(done), std::move(decode));
}

void SlurmRestClient::nodes(QObject* context, Callback<QList<Node>> done)
{
    Call call;
    call.verb = "GET";
    call.path = QStringLiteral("/nodes");
    call.what = QStringLiteral("listing the nodes");
    auto decode = d->decoder<QList<Node>>(call.what, Codec::decodeNodes);
    d->run<QList<Node>>(std::move(call), context, std::move(done), std::move(decode));
}

void SlurmRestClient::partitions(QObject* context, Callback<QList<Partition>> done)
{
    Call call;
    call.verb = "GET";
    call.path = QStringLiteral("/partitions");
    call.what = QStringLiteral("listing the partitions");
    auto decode = d->decoder<QList<Partition>>(call.what, Codec::decodePartitions);
    d->run<QList<Partition>>(std::move(call), context, std::move(done), std::move(decode));
}

void SlurmRestClient::submitHetJob(
    const QString& script, const QList<JobComponentRequest>& components, QObject* context, Callback<SubmitResult> done)
{
    QString invalid;
    if (components.isEmpty())
        invalid = QStringLiteral("a job needs at least one component");
    else if (!script.startsWith(QLatin1String("#!")))
        invalid = QStringLiteral("the batch script must start with \"#!\" (Slurm accepts it without and the job then "
                                 "fails with \"Exec format error\")");
    else if (components.first().environment.isEmpty())
        invalid = QStringLiteral("component 0 needs an environment (Slurm refuses a job without one, and starts the "
                                 "batch script with only that and SLURM_*)");
    if (!invalid.isEmpty()) {
        d->deliver<SubmitResult>(QPointer<QObject>(context ? context : this), done,
            d->error(
                ClientError::Kind::InvalidRequest, QStringLiteral("not submitted to %1: %2").arg(d->where(), invalid)));
        return;
    }
    Call call;
    call.verb = "POST";
    call.path = QStringLiteral("/job/submit");
    call.what = components.size() == 1 ? QStringLiteral("submitting a job")
                                       : QStringLiteral("submitting a het job of %1 components").arg(components.size());
    call.body = [script, components](ApiVersion v) { return Codec::encodeSubmission(v, script, components); };
    const QString what = call.what;
    d->run<SubmitResult>(
        std::move(call), context, std::move(done), [this, what](const Reply& r) -> Result<SubmitResult> {
            QString why;
            // A job ID means the job exists, whatever else the reply says (held: 2042; never runnable: 2015).
            if (std::optional<SubmitResult> submitted = Codec::decodeSubmit(r.json, &why)) {
                for (const RestError& e : std::as_const(submitted->errors))
                    qCInfo(lcSlurm) << "slurm:" << d->cluster.name << "job" << submitted->jobId
                                    << "was created with an error:" << e.text() << e.number;
                return *submitted;
            }
            if (r.httpStatus >= 400 || !r.errors.isEmpty())
                return d->slurmError(what, r);
            return d->error(ClientError::Kind::BadReply,
                QStringLiteral("%1 sent a reply this client cannot read while %2: %3").arg(d->where(), what, why),
                r.httpStatus);
        });
}

void SlurmRestClient::job(qint64 jobId, QObject* context, Callback<QList<JobComponent>> done)
{
    Call call;
    call.verb = "GET";
    call.path = QStringLiteral("/job/%1").arg(jobId);
    call.jobId = jobId;
    call.what = QStringLiteral("reading job %1").arg(jobId);
    auto decode = d->decoder<QList<JobComponent>>(call.what, Codec::decodeJob);
    d->run<QList<JobComponent>>(std::move(call), context, std::move(done), std::move(decode));
}

void SlurmRestClient::jobs(QObject* context, Callback<QList<JobComponent>> done)
{
    Call call;
    call.verb = "GET";
    call.path = QStringLiteral("/jobs");
    call.what = QStringLiteral("listing jobs");
    auto decode = d->decoder<QList<JobComponent>>(call.what, Codec::decodeJob);
    d->run<QList<JobComponent>>(std::move(call), context, std::move(done), std::move(decode));
}

void SlurmRestClient::cancel(qint64 hetLeaderId, QObject* context, Callback<Acknowledged> done, int signal)
{
    Call call;
    call.verb = "DELETE";
    call.path = QStringLiteral("/job/%1").arg(hetLeaderId);
    call.jobId = hetLeaderId;
    if (signal > 0)
        call.query.addQueryItem(QStringLiteral("signal"), QString::number(signal));
    call.what = signal > 0 ? QStringLiteral("sending signal %1 to job %2").arg(signal).arg(hetLeaderId)
                           : QStringLiteral("cancelling job %1").arg(hetLeaderId);
    const QString what = call.what;
    d->run<Acknowledged>(
        std::move(call), context, std::move(done), [this, what](const Reply& r) -> Result<Acknowledged> {
            if (r.httpStatus >= 400 || !r.errors.isEmpty())
                return d->slurmError(what, r);
            return Acknowledged { r.warnings };
        });
}

} // namespace Trainyard::Slurm
