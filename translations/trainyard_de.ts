<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
    <context>
        <name>Trainyard::ExecutorConnection</name>
        <message>
            <source>Starting the executor (%1)…</source>
            <translation>Executor wird gestartet (%1)…</translation>
        </message>
        <message>
            <source>Reconnected to executor</source>
            <translation>Wieder mit dem Executor verbunden</translation>
        </message>
        <message>
            <source>Executor not available: %1</source>
            <translation>Executor nicht verfügbar: %1</translation>
        </message>
        <message>
            <source>Lost the connection to the executor: %1</source>
            <translation>Verbindung zum Executor verloren: %1</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::JobFilterProxyModel</name>
        <message>
            <source>the filter does not parse</source>
            <translation>der Filter ist ungültig</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::JobListModel</name>
        <message numerus="yes">
            <source> (+%n eval)</source>
            <translation>
                <numerusform> (+%n Evaluator)</numerusform>
                <numerusform> (+%n Evaluatoren)</numerusform>
            </translation>
        </message>
        <message>
            <source>1 master, %1 workers, %2 parameter servers, %3 evaluators</source>
            <translation>1 Master, %1 Worker, %2 Parameterserver, %3 Evaluatoren</translation>
        </message>
        <message>
            <source>Position in queue: %1</source>
            <translation>Position in der Warteschlange: %1</translation>
        </message>
        <message>
            <source>Job ID</source>
            <translation>Job-ID</translation>
        </message>
        <message>
            <source>State</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>Created</source>
            <translation>Erstellt</translation>
        </message>
        <message>
            <source>Duration</source>
            <translation>Dauer</translation>
        </message>
        <message>
            <source>Scale tier</source>
            <translation>Skalierungsstufe</translation>
        </message>
        <message>
            <source>Replicas (M + W + PS)</source>
            <translation>Replikate (M + W + PS)</translation>
        </message>
        <message>
            <source>GPUs</source>
            <translation>GPUs</translation>
        </message>
        <message>
            <source>Labels</source>
            <translation>Labels</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::JobView</name>
        <message numerus="yes">
            <source>%n s</source>
            <translation>
                <numerusform>%n s</numerusform>
                <numerusform>%n s</numerusform>
            </translation>
        </message>
        <message>
            <source>%1 min %2 s</source>
            <translation>%1 min %2 s</translation>
        </message>
        <message>
            <source>%1 h %2 min</source>
            <translation>%1 h %2 min</translation>
        </message>
        <message>
            <source>Cancel job</source>
            <translation>Job abbrechen</translation>
        </message>
        <message>
            <source>Open job directory</source>
            <translation>Jobverzeichnis öffnen</translation>
        </message>
        <message>
            <source>Submit similar…</source>
            <translation>Ähnlichen Job senden…</translation>
        </message>
        <message>
            <source>State timeline</source>
            <translation>Statusverlauf</translation>
        </message>
        <message>
            <source>Stop every replica of this job</source>
            <translation>Alle Replikate dieses Jobs stoppen</translation>
        </message>
        <message>
            <source>Open the job directory in the file manager</source>
            <translation>Das Jobverzeichnis im Dateimanager öffnen</translation>
        </message>
        <message>
            <source>Job (gcloud --config YAML)</source>
            <translation>Job (YAML für gcloud --config)</translation>
        </message>
        <message>
            <source>Zoom in</source>
            <translation>Vergrößern</translation>
        </message>
        <message>
            <source>Zoom in (Ctrl++)</source>
            <translation>Vergrößern (Strg++)</translation>
        </message>
        <message>
            <source>Zoom out</source>
            <translation>Verkleinern</translation>
        </message>
        <message>
            <source>Zoom out (Ctrl+-)</source>
            <translation>Verkleinern (Strg+-)</translation>
        </message>
        <message>
            <source>Fit</source>
            <translation>Einpassen</translation>
        </message>
        <message>
            <source>Show the whole cluster (Ctrl+0)</source>
            <translation>Den ganzen Cluster zeigen (Strg+0)</translation>
        </message>
        <message>
            <source>Click a replica to see its logs.</source>
            <translation>Klicken Sie auf ein Replikat, um seine Logs zu sehen.</translation>
        </message>
        <message>
            <source>Overview</source>
            <translation>Übersicht</translation>
        </message>
        <message>
            <source>Topology</source>
            <translation>Topologie</translation>
        </message>
        <message>
            <source>Logs</source>
            <translation>Logs</translation>
        </message>
        <message>
            <source>Error: %1</source>
            <translation>Fehler: %1</translation>
        </message>
        <message>
            <source>Created</source>
            <translation>Erstellt</translation>
        </message>
        <message>
            <source>Started</source>
            <translation>Gestartet</translation>
        </message>
        <message>
            <source>after %1 in the queue</source>
            <translation>nach %1 in der Warteschlange</translation>
        </message>
        <message>
            <source>Waiting</source>
            <translation>Wartet</translation>
        </message>
        <message>
            <source>position %1 in the queue</source>
            <translation>Position %1 in der Warteschlange</translation>
        </message>
        <message>
            <source>ran %1</source>
            <translation>lief %1</translation>
        </message>
        <message>
            <source>Now: %1</source>
            <translation>Jetzt: %1</translation>
        </message>
        <message>
            <source>running for %1</source>
            <translation>läuft seit %1</translation>
        </message>
        <message>
            <source>%1 at %2</source>
            <translation>%1 um %2</translation>
        </message>
        <message>
            <source>Seen here: %1</source>
            <translation>Hier beobachtet: %1</translation>
        </message>
        <message>
            <source>Cancel job %1? Every replica will be stopped.</source>
            <translation>Job %1 abbrechen? Alle Replikate werden gestoppt.</translation>
        </message>
        <message>
            <source>Could not cancel %1: %2</source>
            <translation>%1 konnte nicht abgebrochen werden: %2</translation>
        </message>
        <message>
            <source>Cancelling %1…</source>
            <translation>%1 wird abgebrochen…</translation>
        </message>
        <message>
            <source>The job directory %1 does not exist (yet).</source>
            <translation>Das Jobverzeichnis %1 existiert (noch) nicht.</translation>
        </message>
        <message>
            <source>No application could open %1.</source>
            <translation>Keine Anwendung konnte %1 öffnen.</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::LogPanel</name>
        <message>
            <source>Regex</source>
            <translation>Regex</translation>
        </message>
        <message>
            <source>All replicas</source>
            <translation>Alle Replikate</translation>
        </message>
        <message>
            <source>Show the lines of one replica</source>
            <translation>Die Zeilen eines Replikats zeigen</translation>
        </message>
        <message>
            <source>All severities</source>
            <translation>Alle Schweregrade</translation>
        </message>
        <message>
            <source>Debug and above</source>
            <translation>Debug und höher</translation>
        </message>
        <message>
            <source>Info and above</source>
            <translation>Info und höher</translation>
        </message>
        <message>
            <source>Warnings and above</source>
            <translation>Warnungen und höher</translation>
        </message>
        <message>
            <source>Errors and above</source>
            <translation>Fehler und höher</translation>
        </message>
        <message>
            <source>Minimum severity</source>
            <translation>Mindestschweregrad</translation>
        </message>
        <message>
            <source>Filter lines (text)</source>
            <translation>Zeilen filtern (Text)</translation>
        </message>
        <message>
            <source>Treat the filter as a regular expression</source>
            <translation>Den Filter als regulären Ausdruck behandeln</translation>
        </message>
        <message>
            <source>Follow</source>
            <translation>Mitlaufen</translation>
        </message>
        <message>
            <source>Keep the newest line in view (End)</source>
            <translation>Die neueste Zeile sichtbar halten (Ende)</translation>
        </message>
        <message>
            <source>Previous error</source>
            <translation>Vorheriger Fehler</translation>
        </message>
        <message>
            <source>Previous error (Shift+F8)</source>
            <translation>Vorheriger Fehler (Umschalt+F8)</translation>
        </message>
        <message>
            <source>Next error</source>
            <translation>Nächster Fehler</translation>
        </message>
        <message>
            <source>Next error (F8)</source>
            <translation>Nächster Fehler (F8)</translation>
        </message>
        <message>
            <source>Invalid regular expression: %1</source>
            <translation>Ungültiger regulärer Ausdruck: %1</translation>
        </message>
        <message>
            <source>Filtering…</source>
            <translation>Wird gefiltert…</translation>
        </message>
        <message>
            <source>%1 lines</source>
            <translation>%1 Zeilen</translation>
        </message>
        <message>
            <source>%1 of %2 lines</source>
            <translation>%1 von %2 Zeilen</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::MainWindow</name>
        <message>
            <source>Trainyard</source>
            <translation>Trainyard</translation>
        </message>
        <message>
            <source>Filter: jobId:fmnist* AND state:RUNNING AND labels.owner=alice</source>
            <translation>Filter: jobId:fmnist* AND state:RUNNING AND labels.owner=alice</translation>
        </message>
        <message>
            <source>The service's filter syntax: field:value (prefix with a trailing *), field=value, joined by AND; fields jobId, state, labels.KEY, createTime (also &lt; &gt; &lt;= &gt;=). Ctrl+F</source>
            <translation>Die Filtersyntax des Dienstes: feld:wert (Präfix mit abschließendem *), feld=wert, verknüpft mit AND; Felder jobId, state, labels.SCHLÜSSEL, createTime (auch &lt; &gt; &lt;= &gt;=). Strg+F</translation>
        </message>
        <message>
            <source>Select a job to see its overview, topology and logs.</source>
            <translation>Wählen Sie einen Job, um Übersicht, Topologie und Logs zu sehen.</translation>
        </message>
        <message>
            <source>Filter not applied: %1</source>
            <translation>Filter nicht angewendet: %1</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>&amp;Datei</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>&amp;Beenden</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>&amp;Ansicht</translation>
        </message>
        <message>
            <source>&amp;Refresh</source>
            <translation>&amp;Aktualisieren</translation>
        </message>
        <message>
            <source>&amp;Filter jobs</source>
            <translation>Jobs &amp;filtern</translation>
        </message>
        <message>
            <source>&amp;Job</source>
            <translation>&amp;Job</translation>
        </message>
        <message>
            <source>&amp;Describe</source>
            <translation>&amp;Beschreiben</translation>
        </message>
        <message>
            <source>&amp;Cancel job</source>
            <translation>Job a&amp;bbrechen</translation>
        </message>
        <message>
            <source>Copy job &amp;ID</source>
            <translation>Job-&amp;ID kopieren</translation>
        </message>
        <message>
            <source>&amp;Open job directory</source>
            <translation>Jobverzeichnis ö&amp;ffnen</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>&amp;Hilfe</translation>
        </message>
        <message>
            <source>&amp;About Trainyard</source>
            <translation>Ü&amp;ber Trainyard</translation>
        </message>
        <message>
            <source>About Trainyard</source>
            <translation>Über Trainyard</translation>
        </message>
        <message>
            <source>&lt;b&gt;Trainyard&lt;/b&gt;&lt;p&gt;AI Platform Training's workflow on your workstation: submit training jobs, watch their replicas and logs.&lt;/p&gt;</source>
            <translation>&lt;b&gt;Trainyard&lt;/b&gt;&lt;p&gt;Der Arbeitsablauf von AI Platform Training auf Ihrer Workstation: Trainingsjobs senden, ihre Replikate und Logs verfolgen.&lt;/p&gt;</translation>
        </message>
        <message>
            <source>States</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>All</source>
            <translation>Alle</translation>
        </message>
        <message>
            <source>Running</source>
            <translation>Laufend</translation>
        </message>
        <message>
            <source>Queued</source>
            <translation>Wartend</translation>
        </message>
        <message>
            <source>Succeeded</source>
            <translation>Erfolgreich</translation>
        </message>
        <message>
            <source>Failed</source>
            <translation>Fehlgeschlagen</translation>
        </message>
        <message>
            <source>Cancelled</source>
            <translation>Abgebrochen</translation>
        </message>
        <message>
            <source>Show %1 jobs (%2)</source>
            <translation>Jobs anzeigen: %1 (%2)</translation>
        </message>
        <message>
            <source>Executor: –</source>
            <translation>Executor: –</translation>
        </message>
        <message>
            <source>Executor: %1</source>
            <translation>Executor: %1</translation>
        </message>
        <message>
            <source>Connected</source>
            <translation>Verbunden</translation>
        </message>
        <message>
            <source>Connecting…</source>
            <translation>Verbindung wird hergestellt…</translation>
        </message>
        <message>
            <source>Disconnected</source>
            <translation>Getrennt</translation>
        </message>
        <message>
            <source>Host: %1 / %2 vCPUs, %3 / %4 GB, %5 / %6 GPUs · %7 running, %8 queued</source>
            <translation>Host: %1 / %2 vCPUs, %3 / %4 GB, %5 / %6 GPUs · %7 laufend, %8 wartend</translation>
        </message>
        <message>
            <source>Describe</source>
            <translation>Beschreiben</translation>
        </message>
        <message>
            <source>Cancel job</source>
            <translation>Job abbrechen</translation>
        </message>
        <message>
            <source>Submit similar…</source>
            <translation>Ähnlichen Job senden…</translation>
        </message>
        <message>
            <source>Copy job ID</source>
            <translation>Job-ID kopieren</translation>
        </message>
        <message>
            <source>Open job directory</source>
            <translation>Jobverzeichnis öffnen</translation>
        </message>
        <message>
            <source>Copied %1</source>
            <translation>%1 kopiert</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::ReplicaModel</name>
        <message>
            <source>signal %1 (SIG%2)</source>
            <translation>Signal %1 (SIG%2)</translation>
        </message>
        <message>
            <source>signal %1</source>
            <translation>Signal %1</translation>
        </message>
        <message>
            <source>exit %1</source>
            <translation>Exit %1</translation>
        </message>
        <message>
            <source>PID %1, address %2</source>
            <translation>PID %1, Adresse %2</translation>
        </message>
        <message>
            <source>none</source>
            <translation>keiner</translation>
        </message>
        <message>
            <source>Task</source>
            <translation>Task</translation>
        </message>
        <message>
            <source>State</source>
            <translation>Status</translation>
        </message>
        <message>
            <source>PID</source>
            <translation>PID</translation>
        </message>
        <message>
            <source>Address</source>
            <translation>Adresse</translation>
        </message>
        <message>
            <source>GPUs</source>
            <translation>GPUs</translation>
        </message>
        <message>
            <source>Restarts</source>
            <translation>Neustarts</translation>
        </message>
        <message>
            <source>Exit status</source>
            <translation>Exit-Status</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::SettingsDialog</name>
        <message>
            <source>Settings</source>
            <translation>Einstellungen</translation>
        </message>
        <message>
            <source>&amp;Language:</source>
            <translation>&amp;Sprache:</translation>
        </message>
        <message>
            <source>System default (%1)</source>
            <translation>Systemstandard (%1)</translation>
        </message>
        <message>
            <source>The language of the console. "System default" follows the desktop's language settings (LANGUAGE, LC_MESSAGES, LANG).</source>
            <translation>Die Sprache der Konsole. „Systemstandard“ folgt den Spracheinstellungen des Desktops (LANGUAGE, LC_MESSAGES, LANG).</translation>
        </message>
        <message>
            <source>The menus and this window switch at once; some views show the new language only after Trainyard restarts.</source>
            <translation>Die Menüs und dieses Fenster wechseln sofort; einige Ansichten zeigen die neue Sprache erst nach einem Neustart von Trainyard.</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::State</name>
        <message>
            <source>Queued</source>
            <translation>In Warteschlange</translation>
        </message>
        <message>
            <source>Preparing</source>
            <translation>Wird vorbereitet</translation>
        </message>
        <message>
            <source>Running</source>
            <translation>Läuft</translation>
        </message>
        <message>
            <source>Succeeded</source>
            <translation>Erfolgreich</translation>
        </message>
        <message>
            <source>Failed</source>
            <translation>Fehlgeschlagen</translation>
        </message>
        <message>
            <source>Cancelling</source>
            <translation>Wird abgebrochen</translation>
        </message>
        <message>
            <source>Cancelled</source>
            <translation>Abgebrochen</translation>
        </message>
        <message>
            <source>Pending</source>
            <translation>Ausstehend</translation>
        </message>
        <message>
            <source>Starting</source>
            <translation>Wird gestartet</translation>
        </message>
        <message>
            <source>Restarting</source>
            <translation>Wird neu gestartet</translation>
        </message>
        <message>
            <source>Stopped</source>
            <translation>Gestoppt</translation>
        </message>
    </context>
    <context>
        <name>Trainyard::TopologyView</name>
        <message>
            <source>no GPU</source>
            <translation>keine GPU</translation>
        </message>
        <message>
            <source>GPU %1</source>
            <translation>GPU %1</translation>
        </message>
        <message numerus="yes">
            <source>%n restart(s)</source>
            <translation>
                <numerusform>%n Neustart</numerusform>
                <numerusform>%n Neustarts</numerusform>
            </translation>
        </message>
        <message>
            <source>%1
PID: %2
Address: %3
Machine type: %4</source>
            <translation>%1
PID: %2
Adresse: %3
Maschinentyp: %4</translation>
        </message>
        <message>
            <source>none</source>
            <translation>keiner</translation>
        </message>
        <message>
            <source>Evaluators (not part of the cluster)</source>
            <translation>Evaluatoren (nicht Teil des Clusters)</translation>
        </message>
    </context>
    <context>
        <name>main</name>
        <message>
            <source>Trainyard console: submit and watch training jobs.</source>
            <translation>Trainyard-Konsole: Trainingsjobs senden und beobachten.</translation>
        </message>
        <message>
            <source>Talk to the executor at URL (never auto-started).</source>
            <translation>Mit dem Executor unter URL sprechen (wird nie automatisch gestartet).</translation>
        </message>
        <message>
            <source>Do not start the bundled executor when none answers.</source>
            <translation>Den mitgelieferten Executor nicht starten, wenn keiner antwortet.</translation>
        </message>
    </context>
</TS>
