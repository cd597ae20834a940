<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de">
<context>
    <name>ClusterFit</name>
    <message>
        <source>The cluster is not reachable now.</source>
        <translation>Der Cluster ist derzeit nicht erreichbar.</translation>
    </message>
    <message>
        <source>The cluster is not reachable now: %1</source>
        <translation>Der Cluster ist derzeit nicht erreichbar: %1</translation>
    </message>
    <message numerus="yes">
        <source>It needs %n node(s), one per replica (Slurm gives each replica its own node)</source>
        <translation>
            <numerusform>Er benötigt %n Knoten, einen pro Replikat (Slurm gibt jedem Replikat einen eigenen Knoten)</numerusform>
            <numerusform>Er benötigt %n Knoten, einen pro Replikat (Slurm gibt jedem Replikat einen eigenen Knoten)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; the partition has %n usable node(s).</source>
        <translation>
            <numerusform>; die Partition hat %n nutzbaren Knoten.</numerusform>
            <numerusform>; die Partition hat %n nutzbare Knoten.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Each %1 replica asks for %2 GPUs; the largest node has %n.</source>
        <translation>
            <numerusform>Jedes Replikat der Rolle %1 fordert %2 GPUs an; der größte Knoten hat %n.</numerusform>
            <numerusform>Jedes Replikat der Rolle %1 fordert %2 GPUs an; der größte Knoten hat %n.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2 vCPUs) gets the largest node&apos;s %n CPUs.</source>
        <translation>
            <numerusform>%1 (%2 vCPUs) erhält die %n CPU des größten Knotens.</numerusform>
            <numerusform>%1 (%2 vCPUs) erhält die %n CPUs des größten Knotens.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2 GB) gets the largest node&apos;s %3 GB of memory.</source>
        <translation>%1 (%2 GB) erhält die %3 GB Speicher des größten Knotens.</translation>
    </message>
</context>
<context>
    <name>Trainyard</name>
    <message>
        <source>%1 is a file, not a folder</source>
        <translation>%1 ist eine Datei, kein Ordner</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Cannot create %1: %2</source>
        <translation>%1 kann nicht erstellt werden: %2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>No job dir to copy from or to.</source>
        <translation>Kein Jobverzeichnis, aus dem oder in das kopiert werden kann.</translation>
    </message>
    <message>
        <source>The checkpoint %1 lists no files.</source>
        <translation>Der Checkpoint %1 führt keine Dateien auf.</translation>
    </message>
    <message>
        <source>Refusing to copy %1: not a path inside the job dir.</source>
        <translation>%1 wird nicht kopiert: kein Pfad innerhalb des Jobverzeichnisses.</translation>
    </message>
    <message>
        <source>Cannot copy the checkpoint to %1: it already exists.</source>
        <translation>Der Checkpoint kann nicht nach %1 kopiert werden: es existiert bereits.</translation>
    </message>
    <message>
        <source>Cannot create the folder %1: %2</source>
        <translation>Der Ordner %1 kann nicht erstellt werden: %2</translation>
    </message>
    <message>
        <source>Cannot create a folder in %1: %2</source>
        <translation>In %1 kann kein Ordner erstellt werden: %2</translation>
    </message>
    <message>
        <source>Cannot rename %1 to %2: %3</source>
        <translation>%1 kann nicht in %2 umbenannt werden: %3</translation>
    </message>
</context>
<context>
    <name>Trainyard::AlgorithmArgumentsForm</name>
    <message>
        <source>Required: classification (the target is classes) or regression (the target is a quantity).</source>
        <translation>Erforderlich: classification (das Ziel sind Klassen) oder regression (das Ziel ist eine Größe).</translation>
    </message>
    <message>
        <source>Training steps, each one batch.</source>
        <translation>Trainingsschritte, jeder mit einem Batch.</translation>
    </message>
    <message>
        <source>Rows per training step.</source>
        <translation>Zeilen pro Trainingsschritt.</translation>
    </message>
    <message>
        <source>The optimiser&apos;s step size.</source>
        <translation>Die Schrittweite des Optimierers.</translation>
    </message>
    <message>
        <source>The optimiser: FTRL (the service&apos;s default), Adam or plain gradient descent.</source>
        <translation>Der Optimierer: FTRL (Vorgabe des Dienstes), Adam oder einfacher Gradientenabstieg.</translation>
    </message>
    <message>
        <source>L1 regularisation (FTRL): drives weights to exactly zero.</source>
        <translation>L1-Regularisierung (FTRL): drückt Gewichte auf genau null.</translation>
    </message>
    <message>
        <source>L2 regularisation (FTRL).</source>
        <translation>L2-Regularisierung (FTRL).</translation>
    </message>
    <message>
        <source>Seconds of training between evaluations on the validation split (and at the end).</source>
        <translation>Sekunden Training zwischen den Auswertungen auf den Validierungsdaten (und am Ende).</translation>
    </message>
    <message>
        <source>--%1 is required.</source>
        <translation>--%1 ist erforderlich.</translation>
    </message>
    <message>
        <source>--%1: %2 is not one of %3.</source>
        <extracomment>%1 the argument, %2 the value, %3 the accepted values.</extracomment>
        <translation>--%1: %2 ist keiner der Werte %3.</translation>
    </message>
    <message>
        <source>--%1: %2 is not a whole number.</source>
        <extracomment>%1 the argument, %2 the value.</extracomment>
        <translation>--%1: %2 ist keine ganze Zahl.</translation>
    </message>
    <message>
        <source>--%1: %2 is not a number.</source>
        <translation>--%1: %2 ist keine Zahl.</translation>
    </message>
    <message>
        <source>--%1: %2 is outside %3.</source>
        <extracomment>%1 the argument, %2 the value, %3 the range, e.g. [0, 1].</extracomment>
        <translation>--%1: %2 liegt außerhalb von %3.</translation>
    </message>
    <message>
        <source>The learning task: binary:logistic for two classes, multi:softprob for several, reg:linear (squared error) for a quantity.</source>
        <translation>Die Lernaufgabe: binary:logistic für zwei Klassen, multi:softprob für mehrere, reg:linear (quadratischer Fehler) für eine Größe.</translation>
    </message>
    <message>
        <source>Boosting rounds: the number of trees.</source>
        <translation>Boosting-Runden: die Anzahl der Bäume.</translation>
    </message>
    <message>
        <source>The deepest a tree grows; deeper trees fit more and overfit sooner.</source>
        <translation>Die maximale Tiefe eines Baums; tiefere Bäume passen sich stärker an und neigen früher zur Überanpassung.</translation>
    </message>
    <message>
        <source>The learning rate: how much each tree&apos;s prediction counts.</source>
        <translation>Die Lernrate: wie stark die Vorhersage jedes Baums zählt.</translation>
    </message>
    <message>
        <source>The share of rows each tree is grown on.</source>
        <translation>Der Anteil der Zeilen, auf denen jeder Baum aufgebaut wird.</translation>
    </message>
    <message>
        <source>The share of columns each tree may split on.</source>
        <translation>Der Anteil der Spalten, die jeder Baum für Splits verwenden darf.</translation>
    </message>
    <message>
        <source>L2 regularisation of the leaf weights.</source>
        <translation>L2-Regularisierung der Blattgewichte.</translation>
    </message>
    <message>
        <source>L1 regularisation of the leaf weights.</source>
        <translation>L1-Regularisierung der Blattgewichte.</translation>
    </message>
    <message>
        <source>The smallest loss reduction a split must bring.</source>
        <translation>Die kleinste Verlustminderung, die ein Split bringen muss.</translation>
    </message>
    <message>
        <source>The smallest sum of instance weights (Hessians) a leaf may hold.</source>
        <translation>Die kleinste Summe der Instanzgewichte (Hesse-Werte), die ein Blatt enthalten darf.</translation>
    </message>
    <message>
        <source>How splits are found: hist is fast on large tables; gpu_hist trains on the job&apos;s GPU.</source>
        <translation>Wie Splits gefunden werden: hist ist schnell bei großen Tabellen; gpu_hist trainiert auf der GPU des Jobs.</translation>
    </message>
    <message>
        <source>XGBoost&apos;s evaluation metrics, comma-separated (default: the objective&apos;s).</source>
        <translation>Die Auswertungsmetriken von XGBoost, durch Kommas getrennt (Standard: die der Lernaufgabe).</translation>
    </message>
    <message>
        <source>The deep part&apos;s hidden layer sizes, comma-separated.</source>
        <translation>Die Größen der verborgenen Schichten des tiefen Teils, durch Kommas getrennt.</translation>
    </message>
    <message>
        <source>Use the categorical columns in the wide (linear) part as well.</source>
        <translation>Die kategorialen Spalten auch im breiten (linearen) Teil verwenden.</translation>
    </message>
    <message>
        <source>Embed the categorical columns in the deep part (dimension: the square root of the number of categories) instead of one-hot encoding them.</source>
        <translation>Die kategorialen Spalten im tiefen Teil einbetten (Dimension: die Quadratwurzel der Anzahl der Kategorien), statt sie One-Hot zu codieren.</translation>
    </message>
    <message>
        <source>The deep part&apos;s step size.</source>
        <translation>Die Schrittweite des tiefen Teils.</translation>
    </message>
    <message>
        <source>The deep part&apos;s optimiser.</source>
        <translation>Der Optimierer des tiefen Teils.</translation>
    </message>
    <message>
        <source>The share of the deep part&apos;s units dropped in training.</source>
        <translation>Der Anteil der Einheiten des tiefen Teils, die im Training ausgelassen werden.</translation>
    </message>
    <message>
        <source>%1 Default: %2.</source>
        <extracomment>The tooltip of an argument&apos;s field: what it does, then its default.</extracomment>
        <translation>%1 Standardwert: %2.</translation>
    </message>
    <message>
        <source>Choose…</source>
        <extracomment>The first entry of an argument&apos;s list: the algorithm&apos;s own default applies.</extracomment>
        <translation>Auswählen…</translation>
    </message>
    <message>
        <source>Default (%1)</source>
        <translation>Standard (%1)</translation>
    </message>
    <message>
        <source>the algorithm&apos;s default</source>
        <translation>Standard des Algorithmus</translation>
    </message>
</context>
<context>
    <name>Trainyard::AuditLogModel</name>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Wer</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Caller IP</source>
        <translation>Aufrufer-IP</translation>
    </message>
</context>
<context>
    <name>Trainyard::AuditView</name>
    <message>
        <source>&amp;Live</source>
        <translation>&amp;Live</translation>
    </message>
    <message>
        <source>Audit Log</source>
        <translation>Audit-Protokoll</translation>
    </message>
    <message>
        <source>Principal (alice@example.org)</source>
        <translation>Hauptkonto (alice@example.org)</translation>
    </message>
    <message>
        <source>Method (CancelJob)</source>
        <translation>Methode (CancelJob)</translation>
    </message>
    <message>
        <source>Job ID</source>
        <translation>Job-ID</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Cannot read the audit log: %1</source>
        <translation>Das Audit-Protokoll kann nicht gelesen werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n entries, newest first.</source>
        <translation>
            <numerusform>%n Eintrag, neueste zuerst.</numerusform>
            <numerusform>%n Einträge, neueste zuerst.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Schließen</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Principal</source>
        <translation>Hauptkonto</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Dienst</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Field %1</source>
        <translation>Feld %1</translation>
    </message>
    <message>
        <source>Permission</source>
        <translation>Berechtigung</translation>
    </message>
    <message>
        <source>%1 on %2: %3</source>
        <translation>%1 für %2: %3</translation>
    </message>
    <message>
        <source>granted</source>
        <translation>gewährt</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>verweigert</translation>
    </message>
    <message>
        <source>Caller IP</source>
        <translation>Aufrufer-IP</translation>
    </message>
    <message>
        <source>User agent</source>
        <translation>User-Agent</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Was geschah</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Anfrage</translation>
    </message>
    <message>
        <source>Insert ID</source>
        <translation>Insert-ID</translation>
    </message>
    <message>
        <source>Audit Entry %1</source>
        <translation>Audit-Eintrag %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::BatchPredictionPanel</name>
    <message>
        <source>%1 (its default version)</source>
        <translation>%1 (seine Standardversion)</translation>
    </message>
    <message>
        <source>the model folder %1</source>
        <translation>dem Modellordner %1</translation>
    </message>
    <message>
        <source>&amp;Open Folder</source>
        <translation>Ordner ö&amp;ffnen</translation>
    </message>
    <message>
        <source>%p % of the instances</source>
        <translation>%p % der Instanzen</translation>
    </message>
    <message>
        <source>Open the output folder in the file manager</source>
        <translation>Den Ausgabeordner im Dateimanager öffnen</translation>
    </message>
    <message>
        <source>Output file</source>
        <translation>Ausgabedatei</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Select an output file to see its first lines.</source>
        <translation>Wählen Sie eine Ausgabedatei, um ihre ersten Zeilen zu sehen.</translation>
    </message>
    <message>
        <source>Progress:</source>
        <translation>Fortschritt:</translation>
    </message>
    <message>
        <source>Reads:</source>
        <translation>Liest:</translation>
    </message>
    <message>
        <source>Writes to:</source>
        <translation>Schreibt nach:</translation>
    </message>
    <message numerus="yes">
        <source>%Ln prediction(s)</source>
        <translation>
            <numerusform>%Ln Vorhersage</numerusform>
            <numerusform>%Ln Vorhersagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln error(s)</source>
        <translation>
            <numerusform>%Ln Fehler</numerusform>
            <numerusform>%Ln Fehler</numerusform>
        </translation>
    </message>
    <message>
        <source> of %1 instances</source>
        <translation> von %1 Instanzen</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>; %1 of the workers&apos; time (%2 node hours)</source>
        <extracomment>%1 is a duration (&quot;13.0 s&quot;), %2 the same in node hours.</extracomment>
        <translation>; %1 Laufzeit der Worker (%2 Knotenstunden)</translation>
    </message>
    <message>
        <source>No instance predicted yet.</source>
        <translation>Noch keine Instanz vorhergesagt.</translation>
    </message>
    <message>
        <source>%1 instances from %2, with %3; batches of %4, at most %5 workers</source>
        <translation>%1-Instanzen aus %2, mit %3; Batches von %4, höchstens %5 Worker</translation>
    </message>
    <message>
        <source>No output file yet.</source>
        <translation>Noch keine Ausgabedatei.</translation>
    </message>
    <message>
        <source>The output folder %1 is not on this machine (yet).</source>
        <translation>Der Ausgabeordner %1 ist (noch) nicht auf diesem Rechner.</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
</context>
<context>
    <name>Trainyard::BuiltInAlgorithmForm</name>
    <message>
        <source>Pre&amp;process: split off validation and test rows, fill in missing values, encode categorical columns</source>
        <translation>&amp;Vorverarbeiten: Validierungs- und Testzeilen abtrennen, fehlende Werte auffüllen, kategoriale Spalten codieren</translation>
    </message>
    <message>
        <source>&lt;b&gt;Built-in algorithm&lt;/b&gt; (masterConfig.imageUri): one of the service&apos;s algorithm images. Trainyard runs its own implementation of it (XGBoost; the linear learner and wide and deep in PyTorch, as Debian ships no TensorFlow) with the service&apos;s arguments, so the same job runs on the service unchanged.</source>
        <translation>&lt;b&gt;Integrierter Algorithmus&lt;/b&gt; (masterConfig.imageUri): eines der Algorithmus-Images des Dienstes. Trainyard führt eine eigene Implementierung davon mit den Argumenten des Dienstes aus (XGBoost; Linear Learner und Wide and Deep in PyTorch, da Debian kein TensorFlow mitliefert), sodass derselbe Job unverändert auf dem Dienst läuft.</translation>
    </message>
    <message>
        <source>CSV: no header row, the target in the first column</source>
        <translation>CSV: ohne Kopfzeile, das Ziel in der ersten Spalte</translation>
    </message>
    <message>
        <source>&lt;b&gt;--training_data_path&lt;/b&gt; (required): a UTF-8 CSV file without a header row, the target in the first column, numeric and categorical columns; an empty cell is a missing value.</source>
        <translation>&lt;b&gt;--training_data_path&lt;/b&gt; (erforderlich): eine UTF-8-CSV-Datei ohne Kopfzeile, das Ziel in der ersten Spalte, numerische und kategoriale Spalten; eine leere Zelle ist ein fehlender Wert.</translation>
    </message>
    <message>
        <source>Optional: else preprocessing splits off 20 % of the training rows</source>
        <translation>Optional: sonst trennt die Vorverarbeitung 20 % der Trainingszeilen ab</translation>
    </message>
    <message>
        <source>&lt;b&gt;--preprocess&lt;/b&gt;: the service&apos;s automatic preprocessing. Rows with more than 10 % of their values missing are dropped, numeric gaps get the column&apos;s mean, categorical columns are one-hot encoded, an all-distinct integer column is dropped as a row key, and the validation and test rows are drawn at random (--validation_split, --test_split; 0.20 each).</source>
        <translation>&lt;b&gt;--preprocess&lt;/b&gt;: die automatische Vorverarbeitung des Dienstes. Zeilen, denen mehr als 10 % ihrer Werte fehlen, werden verworfen, numerische Lücken erhalten den Mittelwert der Spalte, kategoriale Spalten werden One-Hot-codiert, eine ganzzahlige Spalte mit lauter verschiedenen Werten wird als Zeilenschlüssel verworfen, und die Validierungs- und Testzeilen werden zufällig gezogen (--validation_split, --test_split; je 0.20).</translation>
    </message>
    <message>
        <source>A&amp;lgorithm:</source>
        <translation>A&amp;lgorithmus:</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV-Dateien (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>&amp;Training data:</source>
        <translation>&amp;Trainingsdaten:</translation>
    </message>
    <message>
        <source>Training data</source>
        <translation>Trainingsdaten</translation>
    </message>
    <message>
        <source>&amp;Validation data:</source>
        <translation>V&amp;alidierungsdaten:</translation>
    </message>
    <message>
        <source>Validation data</source>
        <translation>Validierungsdaten</translation>
    </message>
    <message>
        <source>T&amp;est data:</source>
        <translation>T&amp;estdaten:</translation>
    </message>
    <message>
        <source>Test data</source>
        <translation>Testdaten</translation>
    </message>
    <message>
        <source>Gradient-boosted trees on a master and workers (XGBoost&apos;s collective, rows sharded). No preprocessing: give numeric tables, classes as 0…K−1.</source>
        <translation>Gradient-Boosting-Bäume auf einem Master und Workern (Collective von XGBoost, Zeilen auf die Replikate verteilt). Keine Vorverarbeitung: Geben Sie numerische Tabellen an, Klassen als 0…K−1.</translation>
    </message>
    <message>
        <source>Gradient-boosted trees (XGBoost) for classification or regression: strong on tables of numeric and categorical columns.</source>
        <translation>Gradient-Boosting-Bäume (XGBoost) für Klassifikation oder Regression: stark bei Tabellen mit numerischen und kategorialen Spalten.</translation>
    </message>
    <message>
        <source>A linear model (logistic or linear regression): fast, a baseline, readable weights.%1</source>
        <translation>Ein lineares Modell (logistische oder lineare Regression): schnell, eine Baseline, lesbare Gewichte.%1</translation>
    </message>
    <message>
        <source> Trains on the job&apos;s GPU.</source>
        <translation> Trainiert auf der GPU des Jobs.</translation>
    </message>
    <message>
        <source>A linear part and a deep network over embeddings: for tables with many categorical columns.%1</source>
        <translation>Ein linearer Teil und ein tiefes Netz über Embeddings: für Tabellen mit vielen kategorialen Spalten.%1</translation>
    </message>
    <message>
        <source>The built-in algorithms package is not installed (trainyard/algorithms in the data folders), so the table cannot be previewed.</source>
        <translation>Das Paket der integrierten Algorithmen ist nicht installiert (trainyard/algorithms in den Datenordnern), daher kann keine Vorschau der Tabelle angezeigt werden.</translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation>%1 ist keine Datei.</translation>
    </message>
    <message>
        <source>The preview failed: %1</source>
        <translation>Die Vorschau ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>no output</source>
        <translation>keine Ausgabe</translation>
    </message>
    <message>
        <source>This table cannot be trained on: %1</source>
        <extracomment>%1 is the reason, naming the file, line and column where it can.</extracomment>
        <translation>Mit dieser Tabelle kann nicht trainiert werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>target: %n class(es) (%1): classification</source>
        <extracomment>%1 lists the first classes, e.g. &quot;benign, malignant&quot;.</extracomment>
        <translation>
            <numerusform>Ziel: %n Klasse (%1): Klassifikation</numerusform>
            <numerusform>Ziel: %n Klassen (%1): Klassifikation</numerusform>
        </translation>
    </message>
    <message>
        <source>target: numbers from %1 to %2: regression</source>
        <extracomment>%1 and %2 are the smallest and largest target values in the file.</extracomment>
        <translation>Ziel: Zahlen von %1 bis %2: Regression</translation>
    </message>
    <message>
        <source>Line 1 looks like a header row (text above numbers): remove it; the service&apos;s tables have none, and it would be trained on as data.</source>
        <translation>Zeile 1 sieht wie eine Kopfzeile aus (Text über Zahlen): Entfernen Sie sie; die Tabellen des Dienstes haben keine, und sie würde als Daten mittrainiert.</translation>
    </message>
    <message numerus="yes">
        <source>Column %1: %n of %2 values missing</source>
        <extracomment>%1 is a 1-based column number; %n the missing cells; %2 the file&apos;s rows.</extracomment>
        <translation>
            <numerusform>Spalte %1: %n von %2 Werten fehlt</numerusform>
            <numerusform>Spalte %1: %n von %2 Werten fehlen</numerusform>
        </translation>
    </message>
    <message>
        <source>Table previe&amp;w</source>
        <translation>Tabellenvor&amp;schau</translation>
    </message>
    <message>
        <source>Algor&amp;ithm arguments</source>
        <translation>Algorit&amp;hmus-Argumente</translation>
    </message>
    <message>
        <source>Reading %1 (%2): every row, to count the classes and the missing values…</source>
        <extracomment>%1 is a file name, %2 its size (e.g. &quot;12.5 MiB&quot;).</extracomment>
        <translation>%1 (%2) wird gelesen: jede Zeile, um die Klassen und die fehlenden Werte zu zählen…</translation>
    </message>
    <message>
        <source>Classification because the target holds text.</source>
        <translation>Klassifikation, weil die Zielspalte Text enthält.</translation>
    </message>
    <message>
        <source>Regression because the target has fractional values.</source>
        <translation>Regression, weil die Zielspalte Nachkommawerte hat.</translation>
    </message>
    <message>
        <source>Regression because the target has %1 distinct integers (more than 20 reads as a quantity).</source>
        <extracomment>%1 is the distinct integer count; 20 is the rule&apos;s limit.</extracomment>
        <translation>Regression, weil die Zielspalte %1 verschiedene ganze Zahlen hat (mehr als 20 gelten als Größe).</translation>
    </message>
    <message>
        <source>Regression because the target&apos;s %1 distinct integers are more than 10 and more than 5 % of the rows (too few rows per value to be classes).</source>
        <translation>Regression, weil die %1 verschiedenen ganzen Zahlen der Zielspalte mehr als 10 und mehr als 5 % der Zeilen sind (zu wenige Zeilen je Wert für Klassen).</translation>
    </message>
    <message>
        <source>Classification because the target has %1 distinct integers (at most 20 read as classes).</source>
        <translation>Klassifikation, weil die Zielspalte %1 verschiedene ganze Zahlen hat (bis zu 20 gelten als Klassen).</translation>
    </message>
    <message>
        <source>To train the other task, change the objective (XGBoost) or the model type under Algorithm arguments.</source>
        <translation>Für die andere Aufgabe das Ziel (XGBoost) oder den Modelltyp unter Algorithmus-Argumente ändern.</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s), the first %1 shown; %2; features: %3 numeric, %4 categorical, %5 dropped (key or constant).</source>
        <extracomment>%1 says what the target is; then the counts of feature columns by type. %n counts the file&apos;s rows.</extracomment>
        <translation>
            <numerusform>%n Zeile, die ersten %1 angezeigt; %2; Merkmale: %3 numerisch, %4 kategorial, %5 verworfen (Schlüssel oder konstant).</numerusform>
            <numerusform>%n Zeilen, die ersten %1 angezeigt; %2; Merkmale: %3 numerisch, %4 kategorial, %5 verworfen (Schlüssel oder konstant).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::BuiltInAlgorithms</name>
    <message>
        <source>XGBoost</source>
        <translation>XGBoost</translation>
    </message>
    <message>
        <source>Distributed XGBoost</source>
        <translation>Verteiltes XGBoost</translation>
    </message>
    <message>
        <source>Linear learner</source>
        <translation>Linearer Lerner</translation>
    </message>
    <message>
        <source>Linear learner (GPU)</source>
        <translation>Linearer Lerner (GPU)</translation>
    </message>
    <message>
        <source>Wide and deep</source>
        <translation>Wide and Deep</translation>
    </message>
    <message>
        <source>Wide and deep (GPU)</source>
        <translation>Wide and Deep (GPU)</translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointCompareFilterModel</name>
    <message>
        <source>All tensors</source>
        <translation>Alle Tensoren</translation>
    </message>
    <message>
        <source>All differences</source>
        <translation>Alle Unterschiede</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Hinzugefügt</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>Entfernt</translation>
    </message>
    <message>
        <source>Shape or type changed</source>
        <translation>Form oder Typ geändert</translation>
    </message>
    <message>
        <source>Values changed</source>
        <translation>Werte geändert</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>Unverändert</translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointCompareModel</name>
    <message>
        <source>Added</source>
        <translation>Hinzugefügt</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>Entfernt</translation>
    </message>
    <message>
        <source>Shape changed</source>
        <translation>Form geändert</translation>
    </message>
    <message>
        <source>Type changed</source>
        <translation>Typ geändert</translation>
    </message>
    <message>
        <source>Values changed</source>
        <translation>Werte geändert</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>Unverändert</translation>
    </message>
    <message>
        <source>Stored in A as %1</source>
        <translation>In A gespeichert als %1</translation>
    </message>
    <message>
        <source>Stored in B as %1</source>
        <translation>In B gespeichert als %1</translation>
    </message>
    <message>
        <source>No statistics: %1</source>
        <translation>Keine Statistik: %1</translation>
    </message>
    <message>
        <source>A: %1
B: %2</source>
        <translation>A: %1
B: %2</translation>
    </message>
    <message>
        <source>no finite values</source>
        <translation>keine endlichen Werte</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Statistic of B minus that of A, over the finite values</source>
        <translation>Statistik von B minus der von A, über die endlichen Werte</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Δ mean</source>
        <translation>Δ Mittelwert</translation>
    </message>
    <message>
        <source>Δ std</source>
        <translation>Δ Std.-Abw.</translation>
    </message>
    <message>
        <source>Δ min</source>
        <translation>Δ Min.</translation>
    </message>
    <message>
        <source>Δ max</source>
        <translation>Δ Max.</translation>
    </message>
    <message>
        <source>a bookkeeping entry has no values</source>
        <translation>ein Verwaltungseintrag hat keine Werte</translation>
    </message>
    <message>
        <source>Not compared</source>
        <translation>Nicht verglichen</translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointListModel</name>
    <message>
        <source>TensorFlow bundle</source>
        <translation>TensorFlow-Bundle</translation>
    </message>
    <message>
        <source>SavedModel</source>
        <translation>SavedModel</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>safetensors</source>
        <translation>safetensors</translation>
    </message>
    <message>
        <source>%1
The latest checkpoint (named by the &quot;checkpoint&quot; state file)</source>
        <translation>%1
Der neueste Checkpoint (benannt durch die Statusdatei „checkpoint“)</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1 (aktuell)</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoche</translation>
    </message>
    <message>
        <source>Written</source>
        <translation>Geschrieben</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Keras</source>
        <translation>Keras</translation>
    </message>
    <message>
        <source>%1
The job&apos;s exported model (its model/ folder, what Deploy Model… deploys), not a training checkpoint</source>
        <translation>%1
Das exportierte Modell des Jobs (sein Ordner model/, den „Modell bereitstellen…“ bereitstellt), kein Trainings-Checkpoint</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <extracomment>A row of the Checkpoints tab: %1 is the exported model&apos;s file (model/model.pt).</extracomment>
        <translation>Modell: %1</translation>
    </message>
    <message>
        <source>%1, exported model</source>
        <extracomment>%1 is the model&apos;s format (PyTorch, SavedModel …).</extracomment>
        <translation>%1, exportiertes Modell</translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointsPanel</name>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>Pfad kopieren</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <source>List the checkpoints in the job directory again</source>
        <translation>Die Checkpoints im Jobverzeichnis neu auflisten</translation>
    </message>
    <message>
        <source>Copy the selected checkpoint&apos;s path (what TensorFlow, torch.load or safetensors open)</source>
        <translation>Den Pfad des ausgewählten Checkpoints kopieren (den TensorFlow, torch.load oder safetensors öffnen)</translation>
    </message>
    <message>
        <source>Open the folder holding the selected checkpoint in the file manager</source>
        <translation>Den Ordner mit dem ausgewählten Checkpoint im Dateimanager öffnen</translation>
    </message>
    <message>
        <source>Filter tensors by name or type</source>
        <translation>Tensoren nach Name oder Typ filtern</translation>
    </message>
    <message>
        <source>Select a tensor to see its statistics and first values.</source>
        <translation>Wählen Sie einen Tensor, um seine Statistik und ersten Werte zu sehen.</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>Werte</translation>
    </message>
    <message>
        <source>Cannot list the checkpoints: %1</source>
        <translation>Die Checkpoints können nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>This job has no job directory, so it writes no checkpoints here.</source>
        <translation>Dieser Job hat kein Jobverzeichnis und schreibt daher hier keine Checkpoints.</translation>
    </message>
    <message>
        <source>No checkpoints in %1 yet.</source>
        <translation>Noch keine Checkpoints in %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n checkpoint(s) in %1</source>
        <translation>
            <numerusform>%n Checkpoint in %1</numerusform>
            <numerusform>%n Checkpoints in %1</numerusform>
        </translation>
    </message>
    <message>
        <source> (the folder is too large to list completely)</source>
        <translation> (der Ordner ist zu groß, um ihn vollständig aufzulisten)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen…</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n tensor(s), %2</source>
        <translation>
            <numerusform>%1: %n Tensor, %2</numerusform>
            <numerusform>%1: %n Tensoren, %2</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: no values: %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: keine Werte: %2</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>Elemente</translation>
    </message>
    <message>
        <source>Minimum</source>
        <translation>Minimum</translation>
    </message>
    <message>
        <source>Maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>Standard deviation</source>
        <translation>Standardabweichung</translation>
    </message>
    <message>
        <source>NaN</source>
        <translation>NaN</translation>
    </message>
    <message>
        <source>±Inf</source>
        <translation>±Inf</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weiterer Wert</numerusform>
            <numerusform>… und %n weitere Werte</numerusform>
        </translation>
    </message>
    <message>
        <source>Copied %1</source>
        <translation>%1 kopiert</translation>
    </message>
    <message>
        <source>No application could open %1.</source>
        <translation>Keine Anwendung konnte %1 öffnen.</translation>
    </message>
    <message>
        <source>Submit from this checkpoint…</source>
        <translation>Von diesem Checkpoint aus senden…</translation>
    </message>
    <message>
        <source>Statistics for all</source>
        <translation>Statistik für alle</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>Tauschen</translation>
    </message>
    <message>
        <source>Copy the selected checkpoint into a new job dir and open the submit wizard with this job&apos;s settings, so the new job resumes from it</source>
        <translation>Den ausgewählten Checkpoint in ein neues Jobverzeichnis kopieren und den Sende-Assistenten mit den Einstellungen dieses Jobs öffnen, damit der neue Job von ihm aus fortgesetzt wird</translation>
    </message>
    <message>
        <source>Compare the selected checkpoint (A) with another one (B)</source>
        <translation>Den ausgewählten Checkpoint (A) mit einem anderen (B) vergleichen</translation>
    </message>
    <message>
        <source>(no comparison)</source>
        <translation>(kein Vergleich)</translation>
    </message>
    <message>
        <source>Compare with:</source>
        <translation>Vergleichen mit:</translation>
    </message>
    <message>
        <source>Show the tensors with this kind of change; &quot;Values changed&quot; and &quot;Unchanged&quot; read the statistics of every tensor in both</source>
        <translation>Die Tensoren mit dieser Art von Änderung zeigen; „Werte geändert“ und „Unverändert“ lesen die Statistik jedes Tensors in beiden</translation>
    </message>
    <message>
        <source>Filter tensors by name</source>
        <translation>Tensoren nach Name filtern</translation>
    </message>
    <message>
        <source>Read the statistics of every tensor in both checkpoints, not only of those in view</source>
        <translation>Die Statistik jedes Tensors in beiden Checkpoints lesen, nicht nur der sichtbaren</translation>
    </message>
    <message>
        <source>Compare in the other direction (B to A)</source>
        <translation>In der anderen Richtung vergleichen (B zu A)</translation>
    </message>
    <message>
        <source>not connected to an executor</source>
        <translation>nicht mit einem Executor verbunden</translation>
    </message>
    <message>
        <source>Reading %1 and %2…</source>
        <translation>%1 und %2 werden gelesen…</translation>
    </message>
    <message>
        <source>From A = %1 to B = %2: %3</source>
        <translation>Von A = %1 zu B = %2: %3</translation>
    </message>
    <message>
        <source>no tensors</source>
        <translation>keine Tensoren</translation>
    </message>
    <message numerus="yes">
        <source> (reading statistics: %n left)</source>
        <translation>
            <numerusform> (Statistik wird gelesen: noch %n)</numerusform>
            <numerusform> (Statistik wird gelesen: noch %n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Copying %1 to %2…</source>
        <translation>%1 wird nach %2 kopiert…</translation>
    </message>
    <message>
        <source>Could not copy %1 for a new job: %2</source>
        <translation>%1 konnte nicht für einen neuen Job kopiert werden: %2</translation>
    </message>
    <message>
        <source>Copied %1 to %2</source>
        <translation>%1 nach %2 kopiert</translation>
    </message>
    <message>
        <source>and the exported model (listed last)</source>
        <translation>und das exportierte Modell (zuletzt aufgeführt)</translation>
    </message>
</context>
<context>
    <name>Trainyard::ClustersModel</name>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 (this host)</source>
        <translation>%1 (dieser Host)</translation>
    </message>
    <message>
        <source>%1 (jobs go here)</source>
        <translation>%1 (hier laufen die Jobs)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (%2, Slurm %3)</source>
        <translation>%1 (%2, Slurm %3)</translation>
    </message>
    <message>
        <source>Slurm cluster %1 (slurmrestd %2)</source>
        <translation>Slurm-Cluster %1 (slurmrestd %2)</translation>
    </message>
    <message>
        <source>Jobs whose region names no cluster run on this host.</source>
        <translation>Jobs, deren Region keinen Cluster nennt, laufen auf diesem Host.</translation>
    </message>
    <message>
        <source>Region / node</source>
        <translation>Region / Knoten</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>CPUs in use</source>
        <translation>Belegte CPUs</translation>
    </message>
    <message>
        <source>GPUs in use</source>
        <translation>Belegte GPUs</translation>
    </message>
    <message>
        <source>Partitions</source>
        <translation>Partitionen</translation>
    </message>
    <message>
        <source>Trainyard jobs</source>
        <translation>Trainyard-Jobs</translation>
    </message>
    <message>
        <source>Memory in use</source>
        <translation>Belegter Speicher</translation>
    </message>
</context>
<context>
    <name>Trainyard::ClustersView</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Where jobs run: this host, and the Slurm clusters of the executor&apos;s clusters.yaml (a job&apos;s region picks one).</source>
        <translation>Wo Jobs laufen: dieser Host und die Slurm-Cluster aus der clusters.yaml des Executors (die Region eines Jobs wählt einen davon).</translation>
    </message>
    <message>
        <source>Could not read the regions: %1</source>
        <translation>Die Regionen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>Aktualisiert um %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 of %n node(s) idle</source>
        <translation>
            <numerusform>%1: %2 von %n Knoten im Leerlauf</numerusform>
            <numerusform>%1: %2 von %n Knoten im Leerlauf</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1 / %2 GPUs</source>
        <translation>, %1 / %2 GPUs</translation>
    </message>
    <message>
        <source>&lt;code&gt;$XDG_CONFIG_HOME/trainyard/clusters.yaml&lt;/code&gt; on the executor&apos;s host</source>
        <translation>&lt;code&gt;$XDG_CONFIG_HOME/trainyard/clusters.yaml&lt;/code&gt; auf dem Rechner des Executors</translation>
    </message>
    <message>
        <source>&lt;b&gt;No Slurm cluster is set up: every job runs on this host.&lt;/b&gt;&lt;br&gt;To run jobs on a cluster, describe it in %1, for example:</source>
        <translation>&lt;b&gt;Kein Slurm-Cluster eingerichtet: Jeder Job läuft auf diesem Host.&lt;/b&gt;&lt;br&gt;Um Jobs auf einem Cluster auszuführen, ihn in %1 beschreiben, zum Beispiel:</translation>
    </message>
    <message>
        <source>then restart the executor, and give the cluster&apos;s name as a job&apos;s region.</source>
        <translation>dann den Executor neu starten und den Namen des Clusters als Region eines Jobs angeben.</translation>
    </message>
    <message>
        <source>Every key and what the nodes need: README, Slurm clusters</source>
        <translation>Alle Schlüssel und was die Knoten benötigen: README, Abschnitt „Slurm clusters“</translation>
    </message>
</context>
<context>
    <name>Trainyard::ConfusionMatrixModel</name>
    <message>
        <source>True %1, predicted %2: %3 (%4 % of %1)</source>
        <extracomment>%1 true class, %2 predicted class, %3 count, %4 its percentage of the true class&apos;s rows.</extracomment>
        <translation>Wahre Klasse %1, vorhergesagt %2: %3 (%4 % von %1)</translation>
    </message>
    <message>
        <source>Predicted class %1</source>
        <translation>Vorhergesagte Klasse %1</translation>
    </message>
    <message>
        <source>Actual class %1</source>
        <translation>Tatsächliche Klasse %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::ConnectDialog</name>
    <message>
        <source>Connect to Executor</source>
        <translation>Mit Executor verbinden</translation>
    </message>
    <message>
        <source>https://host:port</source>
        <translation>https://Host:Port</translation>
    </message>
    <message>
        <source>tyk_… (from trainyardctl auth tokens create)</source>
        <translation>tyk_… (von trainyardctl auth tokens create)</translation>
    </message>
    <message>
        <source>Executor &amp;URL:</source>
        <translation>Executor-&amp;URL:</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>&amp;Token:</translation>
    </message>
    <message>
        <source>Trust the executor&apos;s certificate</source>
        <translation>Dem Zertifikat des Executors vertrauen</translation>
    </message>
    <message>
        <source>Trust on &amp;first use (pin the certificate)</source>
        <translation>Bei &amp;erster Verwendung vertrauen (Zertifikat pinnen)</translation>
    </message>
    <message>
        <source>Verify with a &amp;CA file</source>
        <translation>Mit einer &amp;CA-Datei prüfen</translation>
    </message>
    <message>
        <source>PEM file of the CA that signed the executor&apos;s certificate</source>
        <translation>PEM-Datei der CA, die das Zertifikat des Executors signiert hat</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Trust on first use&lt;/b&gt;: the console shows the certificate the executor presents. Compare its SHA-256 fingerprint with the one the executor printed when it started (or that its admin sends you); once you trust it, it is pinned, and a different certificate later is refused, as ssh does with host keys.&lt;br&gt;&lt;b&gt;CA file&lt;/b&gt;: for executors whose certificate your team&apos;s CA signed; the certificate must be signed by that CA and name the host in the URL. Nothing is pinned.</source>
        <translation>&lt;b&gt;Bei erster Verwendung vertrauen&lt;/b&gt;: Die Konsole zeigt das Zertifikat, das der Executor vorlegt. Vergleichen Sie seinen SHA-256-Fingerabdruck mit dem, den der Executor bei seinem Start ausgegeben hat (oder den Ihnen sein Administrator schickt); sobald Sie ihm vertrauen, ist es gepinnt, und ein anderes Zertifikat wird später abgelehnt, wie es ssh mit Host-Schlüsseln macht.&lt;br&gt;&lt;b&gt;CA-Datei&lt;/b&gt;: für Executors, deren Zertifikat die CA Ihres Teams signiert hat; das Zertifikat muss von dieser CA signiert sein und den Hostnamen aus der URL enthalten. Es wird nichts gepinnt.</translation>
    </message>
    <message>
        <source>Presented certificate</source>
        <translation>Vorgelegtes Zertifikat</translation>
    </message>
    <message>
        <source>I compared the fingerprint: trust this certificate and &amp;pin it</source>
        <translation>Ich habe den Fingerabdruck verglichen: diesem Zertifikat vertrauen und es &amp;pinnen</translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation>Inhaber:</translation>
    </message>
    <message>
        <source>Issuer:</source>
        <translation>Aussteller:</translation>
    </message>
    <message>
        <source>Valid:</source>
        <translation>Gültig:</translation>
    </message>
    <message>
        <source>SHA-256:</source>
        <translation>SHA-256:</translation>
    </message>
    <message>
        <source>&amp;Test Connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>CA Certificate</source>
        <translation>CA-Zertifikat</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation>PEM-Zertifikate (*.pem *.crt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>The URL must be https://HOST:PORT (plain http only for this computer&apos;s own executor: the token would cross the network in clear text).</source>
        <translation>Die URL muss https://HOST:PORT lauten (unverschlüsseltes http nur für den eigenen Executor dieses Rechners: Das Token würde im Klartext durch das Netzwerk gehen).</translation>
    </message>
    <message>
        <source>Fetching the certificate of %1…</source>
        <translation>Zertifikat von %1 wird abgerufen…</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 bis %2</translation>
    </message>
    <message>
        <source>This computer&apos;s CAs trust this certificate; pinning it also refuses any other one later.</source>
        <translation>Die CAs dieses Rechners vertrauen diesem Zertifikat; wenn Sie es pinnen, wird später außerdem jedes andere abgelehnt.</translation>
    </message>
    <message>
        <source>No certificate is pinned for %1 yet. Compare the fingerprint with the one the executor printed at its start before you trust it.</source>
        <translation>Für %1 ist noch kein Zertifikat gepinnt. Vergleichen Sie den Fingerabdruck mit dem, den der Executor bei seinem Start ausgegeben hat, bevor Sie ihm vertrauen.</translation>
    </message>
    <message>
        <source>Check the certificate, then trust it to test the token.</source>
        <translation>Prüfen Sie das Zertifikat und vertrauen Sie ihm dann, um das Token zu testen.</translation>
    </message>
    <message>
        <source>This is the certificate you pinned for %1.</source>
        <translation>Dies ist das Zertifikat, das Sie für %1 gepinnt haben.</translation>
    </message>
    <message>
        <source>WARNING: this is not the certificate pinned for %1 (%2 line %3): pinned %4. Someone may be intercepting the connection; trust the new certificate only if you know the executor&apos;s certificate was replaced.</source>
        <translation>WARNUNG: Dies ist nicht das für %1 gepinnte Zertifikat (%2, Zeile %3): gepinnt ist %4. Möglicherweise fängt jemand die Verbindung ab; vertrauen Sie dem neuen Zertifikat nur, wenn Sie wissen, dass das Zertifikat des Executors ersetzt wurde.</translation>
    </message>
    <message>
        <source>The certificate differs from the pinned one.</source>
        <translation>Das Zertifikat weicht vom gepinnten ab.</translation>
    </message>
    <message>
        <source>the certificate you accepted</source>
        <translation>das von Ihnen akzeptierte Zertifikat</translation>
    </message>
    <message>
        <source>Testing the token with %1…</source>
        <translation>Token wird mit %1 getestet…</translation>
    </message>
    <message>
        <source>The executor refused the token (401 UNAUTHENTICATED): %1</source>
        <translation>Der Executor hat das Token abgelehnt (401 UNAUTHENTICATED): %1</translation>
    </message>
    <message numerus="yes">
        <source>Connected: the executor accepted the token (%n CPU(s), %1 job(s) running).</source>
        <translation>
            <numerusform>Verbunden: Der Executor hat das Token akzeptiert (%n CPU; laufende Jobs: %1).</numerusform>
            <numerusform>Verbunden: Der Executor hat das Token akzeptiert (%n CPUs; laufende Jobs: %1).</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot pin the certificate: %1</source>
        <translation>Das Zertifikat kann nicht gepinnt werden: %1</translation>
    </message>
    <message>
        <source>The desktop keyring did not store the token (%1). Is a keyring service (GNOME Keyring, KWallet) running? You can connect anyway: the token is then kept in memory for this session only, never written to disk, and asked for again next time.</source>
        <translation>Der Schlüsselbund des Desktops hat das Token nicht gespeichert (%1). Läuft ein Schlüsselbunddienst (GNOME Keyring, KWallet)? Sie können sich trotzdem verbinden: Das Token wird dann nur für diese Sitzung im Arbeitsspeicher gehalten, nie auf die Festplatte geschrieben und beim nächsten Mal erneut abgefragt.</translation>
    </message>
    <message>
        <source>Connect for This &amp;Session</source>
        <translation>Für diese &amp;Sitzung verbinden</translation>
    </message>
</context>
<context>
    <name>Trainyard::CsvPreviewModel</name>
    <message>
        <source>Missing: preprocessing fills it in (numeric columns: the mean)</source>
        <translation>Fehlender Wert: Die Vorverarbeitung füllt ihn auf (numerische Spalten: mit dem Mittelwert)</translation>
    </message>
    <message>
        <source>target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>numeric</source>
        <translation>numerisch</translation>
    </message>
    <message>
        <source>categorical</source>
        <translation>kategorial</translation>
    </message>
    <message>
        <source>key (dropped)</source>
        <translation>Schlüssel (verworfen)</translation>
    </message>
    <message>
        <source>constant (dropped)</source>
        <translation>konstant (verworfen)</translation>
    </message>
    <message>
        <source>%1
%2</source>
        <extracomment>A CSV column&apos;s header: its 1-based position, then its detected type on a second line.</extracomment>
        <translation>%1
%2</translation>
    </message>
    <message numerus="yes">
        <source>The target (first column): numbers from %1 to %2, %n distinct</source>
        <extracomment>%1 and %2 are the smallest and largest target values among the previewed rows.</extracomment>
        <translation>
            <numerusform>Das Ziel (erste Spalte): Zahlen von %1 bis %2, %n verschiedener Wert</numerusform>
            <numerusform>Das Ziel (erste Spalte): Zahlen von %1 bis %2, %n verschiedene Werte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The target (first column): %n class(es)</source>
        <translation>
            <numerusform>Das Ziel (erste Spalte): %n Klasse</numerusform>
            <numerusform>Das Ziel (erste Spalte): %n Klassen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n distinct value(s)</source>
        <translation>
            <numerusform>%n verschiedener Wert</numerusform>
            <numerusform>%n verschiedene Werte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n missing</source>
        <translation>
            <numerusform>%n fehlender Wert</numerusform>
            <numerusform>%n fehlende Werte</numerusform>
        </translation>
    </message>
    <message>
        <source>treatment: %1</source>
        <translation>Behandlung: %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::DeployDialog</name>
    <message>
        <source>Deploy a Model</source>
        <translation>Ein Modell bereitstellen</translation>
    </message>
    <message>
        <source>A model of the project, or a new name: the model is created first.</source>
        <translation>Ein Modell des Projekts oder ein neuer Name: Das Modell wird zuerst angelegt.</translation>
    </message>
    <message>
        <source>Prediction nodes: processes that each keep the model loaded; requests are spread over them.</source>
        <translation>Vorhersageknoten: Prozesse, die das Modell jeweils geladen halten; Anfragen werden auf sie verteilt.</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>Model Folder</source>
        <translation>Modellordner</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>&amp;Version:</source>
        <translation>&amp;Version:</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>F&amp;ramework:</source>
        <translation>F&amp;ramework:</translation>
    </message>
    <message>
        <source>&amp;Nodes:</source>
        <translation>&amp;Knoten:</translation>
    </message>
    <message>
        <source>The folder&apos;s files are copied into the executor&apos;s data folder, so a later change of the folder changes nothing deployed. The first version of a model becomes its default.</source>
        <translation>Die Dateien des Ordners werden in den Datenordner des Executors kopiert; eine spätere Änderung des Ordners ändert nichts Bereitgestelltes. Die erste Version eines Modells wird seine Standardversion.</translation>
    </message>
    <message>
        <source>Model name: %1</source>
        <translation>Modellname: %1</translation>
    </message>
    <message>
        <source>Version name: %1</source>
        <translation>Versionsname: %1</translation>
    </message>
    <message>
        <source>Choose the folder that holds the model&apos;s files.</source>
        <translation>Wählen Sie den Ordner mit den Dateien des Modells.</translation>
    </message>
    <message>
        <source>Deploying…</source>
        <translation>Wird bereitgestellt…</translation>
    </message>
    <message>
        <source>Version name: model %1 already has a version %2; %3 is free.</source>
        <extracomment>%1 model, %2 the version typed, %3 the next free version name.</extracomment>
        <translation>Versionsname: Modell %1 hat bereits eine Version %2; %3 ist frei.</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Sampled Shapley (any model)</source>
        <translation>Stichproben-Shapley (jedes Modell)</translation>
    </message>
    <message>
        <source>Integrated gradients (PyTorch)</source>
        <translation>Integrierte Gradienten (PyTorch)</translation>
    </message>
    <message>
        <source>XRAI (PyTorch images)</source>
        <translation>XRAI (PyTorch-Bilder)</translation>
    </message>
    <message>
        <source>TreeSHAP (XGBoost)</source>
        <translation>TreeSHAP (XGBoost)</translation>
    </message>
    <message>
        <source>Exact Shapley (at most 12 features)</source>
        <translation>Exakte Shapley-Werte (höchstens 12 Merkmale)</translation>
    </message>
    <message>
        <source>E&amp;xplanations:</source>
        <translation>E&amp;rklärungen:</translation>
    </message>
    <message>
        <source> paths</source>
        <translation> Pfade</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> Schritte</translation>
    </message>
    <message>
        <source>Predictions only: Explain stays off for this version.</source>
        <translation>Nur Vorhersagen: „Erklären“ bleibt für diese Version aus.</translation>
    </message>
    <message>
        <source>Each instance costs paths × (features + 1) rows through the model, one call per path; the error shrinks as 1/√paths. Needs explanation_metadata.json (each feature&apos;s baseline) in the folder, or a built-in algorithm&apos;s model.</source>
        <translation>Jede Instanz kostet Pfade × (Merkmale + 1) Zeilen durch das Modell, ein Aufruf je Pfad; der Fehler sinkt mit 1/√Pfade. Braucht explanation_metadata.json (die Baseline jedes Merkmals) im Ordner oder das Modell eines integrierten Algorithmus.</translation>
    </message>
    <message>
        <source>Integrated gradients, then the image&apos;s segments at six scales ranked by attribution: a second or so per image. Needs a TorchScript model whose explanation_metadata.json says its input is an image.</source>
        <translation>Integrierte Gradienten, dann die Segmente des Bildes in sechs Maßstäben nach Attribution geordnet: etwa eine Sekunde je Bild. Braucht ein TorchScript-Modell, dessen explanation_metadata.json seine Eingabe als Bild ausweist.</translation>
    </message>
    <message>
        <source>One batched forward and backward pass of steps + 1 rows per instance; exact for a linear model. Needs a TorchScript model and each input&apos;s baseline (explanation_metadata.json).</source>
        <translation>Ein gebündelter Vorwärts- und Rückwärtsdurchlauf von Schritte + 1 Zeilen je Instanz; exakt für ein lineares Modell. Braucht ein TorchScript-Modell und die Baseline jeder Eingabe (explanation_metadata.json).</translation>
    </message>
    <message>
        <source>Exact for the trees, one pass per instance, in the booster&apos;s margin (log-odds) space from its expected margin; needs no baseline.</source>
        <translation>Exakt für die Bäume, ein Durchlauf je Instanz, im Margin-Raum (Log-Odds) des Boosters ab seiner erwarteten Margin; braucht keine Baseline.</translation>
    </message>
    <message>
        <source>2^features rows per instance (4,096 at 12 features): exact values, for small models only.</source>
        <translation>2^Merkmale Zeilen je Instanz (4.096 bei 12 Merkmalen): exakte Werte, nur für kleine Modelle.</translation>
    </message>
</context>
<context>
    <name>Trainyard::DeployedModelsModel</name>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Framework</source>
        <translation>Framework</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Last use</source>
        <translation>Zuletzt benutzt</translation>
    </message>
    <message>
        <source>Deployment / description</source>
        <translation>Bereitstellung / Beschreibung</translation>
    </message>
    <message>
        <source>Requests per second over the latest 10 s (the Charts tab shows the last hour)</source>
        <translation>Anfragen pro Sekunde in den letzten 10 s (der Reiter Diagramme zeigt die letzte Stunde)</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n version(s))</source>
        <extracomment>A model&apos;s row: %1 its name, %n its versions.</extracomment>
        <translation>
            <numerusform>%1 (%n Version)</numerusform>
            <numerusform>%1 (%n Versionen)</numerusform>
        </translation>
    </message>
</context>
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
    <message>
        <source>No token for %1 in the desktop keyring; using this computer&apos;s executor. File &gt; Connect to Executor… connects to it again.</source>
        <translation>Kein Token für %1 im Schlüsselbund des Desktops; der Executor dieses Rechners wird verwendet. Datei &gt; Mit Executor verbinden… verbindet wieder mit ihm.</translation>
    </message>
    <message>
        <source>The desktop keyring did not give the token for %1 (%2); using this computer&apos;s executor. File &gt; Connect to Executor… connects to it again.</source>
        <translation>Der Schlüsselbund des Desktops hat das Token für %1 nicht herausgegeben (%2); der Executor dieses Rechners wird verwendet. Datei &gt; Mit Executor verbinden… verbindet wieder mit ihm.</translation>
    </message>
</context>
<context>
    <name>Trainyard::ExecutorStatusBar</name>
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
        <source>Host: %1, %2, %3 · %4 running, %5 queued</source>
        <translation>Host: %1, %2, %3 · %4 laufend, %5 wartend</translation>
    </message>
    <message>
        <source>%1 / %2 vCPUs</source>
        <translation>%1 / %2 vCPUs</translation>
    </message>
    <message>
        <source>%1 / %2 GB</source>
        <translation>%1 / %2 GB</translation>
    </message>
    <message>
        <source>%1 / %2 GPUs</source>
        <translation>%1 / %2 GPUs</translation>
    </message>
    <message>
        <source>The executor&apos;s Slurm clusters: idle nodes and GPUs in use. Click for the Clusters view.</source>
        <translation>Die Slurm-Cluster des Executors: Knoten im Leerlauf und belegte GPUs. Klicken Sie für die Ansicht „Cluster“.</translation>
    </message>
    <message numerus="yes">
        <source>, %n prediction node(s)</source>
        <translation>
            <numerusform>, %n Vorhersageknoten</numerusform>
            <numerusform>, %n Vorhersageknoten</numerusform>
        </translation>
    </message>
    <message>
        <source>Running jobs and prediction nodes reserve more than this host has: they share the host&apos;s CPUs and memory, run slower than their machine types promise, and may be killed if memory runs out.</source>
        <translation>Laufende Jobs und Vorhersageknoten reservieren mehr, als dieser Host hat: Sie teilen sich CPUs und Speicher des Hosts, laufen langsamer, als ihre Maschinentypen versprechen, und können zwangsweise beendet werden, wenn der Speicher ausgeht.</translation>
    </message>
    <message>
        <source>What running jobs and prediction nodes reserve of this host (machine types&apos; vCPUs and memory, GPUs).</source>
        <translation>Was laufende Jobs und Vorhersageknoten von diesem Host reservieren (vCPUs und Speicher der Maschinentypen, GPUs).</translation>
    </message>
</context>
<context>
    <name>Trainyard::ExplanationView</name>
    <message numerus="yes">
        <source>Sampled Shapley, %n path(s)</source>
        <translation>
            <numerusform>Stichproben-Shapley, %n Pfad</numerusform>
            <numerusform>Stichproben-Shapley, %n Pfade</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Integrated gradients, %n step(s)</source>
        <translation>
            <numerusform>Integrierte Gradienten, %n Schritt</numerusform>
            <numerusform>Integrierte Gradienten, %n Schritte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>XRAI, %n step(s)</source>
        <translation>
            <numerusform>XRAI, %n Schritt</numerusform>
            <numerusform>XRAI, %n Schritte</numerusform>
        </translation>
    </message>
    <message>
        <source>Exact Shapley values</source>
        <translation>Exakte Shapley-Werte</translation>
    </message>
    <message>
        <source>TreeSHAP (margin space)</source>
        <translation>TreeSHAP (Margin-Raum)</translation>
    </message>
    <message>
        <source>%1 · score %2 from baseline %3 · approximation error %4</source>
        <translation>%1 · Wert %2 ab Baseline %3 · Näherungsfehler %4</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>%1 = (missing)</source>
        <translation>%1 = (fehlt)</translation>
    </message>
    <message numerus="yes">
        <source>%n other feature(s)</source>
        <translation>
            <numerusform>%n weiteres Merkmal</numerusform>
            <numerusform>%n weitere Merkmale</numerusform>
        </translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>Baseline</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>Vorhersage</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>Instanz</translation>
    </message>
    <message>
        <source>XRAI&apos;s top regions</source>
        <translation>Die wichtigsten XRAI-Regionen</translation>
    </message>
    <message>
        <source>Attribution (|value|) over it</source>
        <translation>Attribution (|Wert|) darüber</translation>
    </message>
</context>
<context>
    <name>Trainyard::ExplanationsPanel</name>
    <message>
        <source>Explain shows, for each instance, how much each feature moved the prediction away from the baseline (the version&apos;s explanationConfig says how).</source>
        <translation>„Erklären“ zeigt für jede Instanz, wie weit jedes Merkmal die Vorhersage von der Baseline wegbewegt hat (wie, sagt die explanationConfig der Version).</translation>
    </message>
    <message>
        <source>Instance %1 · output %2</source>
        <translation>Instanz %1 · Ausgabe %2</translation>
    </message>
    <message>
        <source>The answer holds no explanation.</source>
        <translation>Die Antwort enthält keine Erklärung.</translation>
    </message>
</context>
<context>
    <name>Trainyard::FrameworkGuess</name>
    <message>
        <source>The folder does not exist.</source>
        <translation>Der Ordner existiert nicht.</translation>
    </message>
    <message>
        <source>model.bst and preprocessing.json: a built-in algorithm&apos;s XGBoost model. It takes raw rows of the training table and answers its labels.</source>
        <translation>model.bst und preprocessing.json: das XGBoost-Modell eines integrierten Algorithmus. Es nimmt Rohzeilen der Trainingstabelle und antwortet mit deren Labels.</translation>
    </message>
    <message>
        <source>model.bst: an XGBoost booster.</source>
        <translation>model.bst: ein XGBoost-Booster.</translation>
    </message>
    <message>
        <source>model.pt and preprocessing.json: a built-in algorithm&apos;s PyTorch model. It takes raw rows of the training table and answers its labels.</source>
        <translation>model.pt und preprocessing.json: das PyTorch-Modell eines integrierten Algorithmus. Es nimmt Rohzeilen der Trainingstabelle und antwortet mit deren Labels.</translation>
    </message>
    <message>
        <source>model.pt: a PyTorch model, served if it is TorchScript (torch.jit.script or torch.jit.trace).</source>
        <translation>model.pt: ein PyTorch-Modell, bereitgestellt, wenn es TorchScript ist (torch.jit.script oder torch.jit.trace).</translation>
    </message>
    <message>
        <source>%1: a scikit-learn model (an XGBoost model saved through its scikit-learn API takes XGBOOST).</source>
        <translation>%1: ein scikit-learn-Modell (ein über die scikit-learn-API gespeichertes XGBoost-Modell braucht XGBOOST).</translation>
    </message>
    <message>
        <source>saved_model.pb: a TensorFlow SavedModel, which cannot be served here (this system has no TensorFlow runtime).</source>
        <translation>saved_model.pb: ein TensorFlow-SavedModel, das hier nicht bereitgestellt werden kann (dieses System hat keine TensorFlow-Laufzeit).</translation>
    </message>
    <message>
        <source>No model file: expected model.joblib or model.pkl (scikit-learn), model.bst (XGBoost) or model.pt (TorchScript).</source>
        <translation>Keine Modelldatei: erwartet wird model.joblib oder model.pkl (scikit-learn), model.bst (XGBoost) oder model.pt (TorchScript).</translation>
    </message>
</context>
<context>
    <name>Trainyard::HostFit</name>
    <message>
        <source>%1 vCPUs on this host&apos;s %2</source>
        <translation>%1 vCPUs (dieser Host hat %2)</translation>
    </message>
    <message>
        <source>%1 GB of memory on this host&apos;s %2 GB</source>
        <translation>%1 GB Speicher (dieser Host hat %2 GB)</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) are queued ahead of it (first in, first out).</source>
        <translation>
            <numerusform>Vor ihm wartet %n Job in der Warteschlange (First In, First Out).</numerusform>
            <numerusform>Vor ihm warten %n Jobs in der Warteschlange (First In, First Out).</numerusform>
        </translation>
    </message>
    <message>
        <source>The host is idle; a job alone on the host always starts.</source>
        <translation>Der Host ist im Leerlauf; ein Job allein auf dem Host startet immer.</translation>
    </message>
    <message>
        <source>Free now: %1 vCPUs, %2 GB, %3 GPUs.</source>
        <translation>Jetzt frei: %1 vCPUs, %2 GB, %3 GPUs.</translation>
    </message>
    <message>
        <source>It asks for %1. It will start when no other job runs (a job alone on the host always starts), but its replicas will share what this host has: expect it to run slower than on the machine types chosen, and replicas may be killed if memory runs out. Choose smaller machine types or fewer replicas to avoid this.</source>
        <translation>Er fordert %1 an. Er startet, wenn kein anderer Job läuft (ein Job allein auf dem Host startet immer), aber seine Replikate teilen sich, was dieser Host hat: Er wird voraussichtlich langsamer laufen als auf den gewählten Maschinentypen, und Replikate können zwangsweise beendet werden, wenn der Speicher ausgeht. Kleinere Maschinentypen oder weniger Replikate wählen, um das zu vermeiden.</translation>
    </message>
    <message>
        <source> and </source>
        <translation> und </translation>
    </message>
    <message>
        <source>This host holds %1 of its %2 parallel trials at once (each needs %3 vCPUs, %4 GB): the others wait for a trial to end.</source>
        <translation>Dieser Host nimmt %1 seiner %2 parallelen Versuche gleichzeitig auf (jeder benötigt %3 vCPUs, %4 GB): Die anderen warten, bis ein Versuch endet.</translation>
    </message>
    <message numerus="yes">
        <source>Needs %n replica(s)</source>
        <translation>
            <numerusform>Benötigt %n Replikat</numerusform>
            <numerusform>Benötigt %n Replikate</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1 vCPUs, %2 GB</source>
        <translation>, %1 vCPUs, %2 GB</translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s)</source>
        <translation>
            <numerusform>, %n GPU</numerusform>
            <numerusform>, %n GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>(%n trial(s) at once)</source>
        <translation>
            <numerusform>(%n Versuch gleichzeitig)</numerusform>
            <numerusform>(%n Versuche gleichzeitig)</numerusform>
        </translation>
    </message>
    <message>
        <source>Can never run here.</source>
        <translation>Kann hier nie laufen.</translation>
    </message>
    <message>
        <source>Fits this host now.</source>
        <translation>Passt jetzt auf diesen Host.</translation>
    </message>
    <message>
        <source>Oversubscribes this host.</source>
        <translation>Überbucht diesen Host.</translation>
    </message>
    <message>
        <source>Will queue.</source>
        <translation>Wird in die Warteschlange gestellt.</translation>
    </message>
    <message numerus="yes">
        <source>No job runs; %n prediction node(s) of deployed versions hold some of the host.</source>
        <translation>
            <numerusform>Kein Job läuft; %n Vorhersageknoten einer bereitgestellten Version belegt einen Teil des Hosts.</numerusform>
            <numerusform>Kein Job läuft; %n Vorhersageknoten bereitgestellter Versionen belegen einen Teil des Hosts.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No other job runs, so it starts now (a job alone on the host always starts), beside %n prediction node(s) of deployed versions.</source>
        <translation>
            <numerusform>Kein anderer Job läuft, daher startet er sofort (ein Job allein auf dem Host startet immer), neben %n Vorhersageknoten einer bereitgestellten Version.</numerusform>
            <numerusform>Kein anderer Job läuft, daher startet er sofort (ein Job allein auf dem Host startet immer), neben %n Vorhersageknoten bereitgestellter Versionen.</numerusform>
        </translation>
    </message>
    <message>
        <source>They hold %1 vCPUs and %2 GB of this host&apos;s %3 vCPUs and %4 GB: together they ask for more than it has, so the job&apos;s replicas and the nodes share its CPUs and memory. Delete or scale down a version to avoid this.</source>
        <translation>Sie belegen %1 vCPUs und %2 GB der %3 vCPUs und %4 GB dieses Hosts: Zusammen fordern sie mehr an, als er hat, daher teilen sich die Replikate des Jobs und die Knoten seine CPUs und seinen Speicher. Eine Version löschen oder herunterskalieren, um das zu vermeiden.</translation>
    </message>
    <message numerus="yes">
        <source>Prediction nodes of deployed versions hold part of that (%n node(s)).</source>
        <translation>
            <numerusform>Vorhersageknoten bereitgestellter Versionen belegen einen Teil davon (%n Knoten).</numerusform>
            <numerusform>Vorhersageknoten bereitgestellter Versionen belegen einen Teil davon (%n Knoten).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n running job(s) hold %1 of %2 vCPUs, %3 of %4 GB and %5 of %6 GPUs.</source>
        <translation>
            <numerusform>%n laufender Job belegt %1 von %2 vCPUs, %3 von %4 GB und %5 von %6 GPUs.</numerusform>
            <numerusform>%n laufende Jobs belegen %1 von %2 vCPUs, %3 von %4 GB und %5 von %6 GPUs.</numerusform>
        </translation>
    </message>
    <message>
        <source>Once it starts it asks for %1: its replicas will share what this host has. Choose smaller machine types or fewer replicas to avoid this.</source>
        <translation>Sobald er startet, verlangt er %1: seine Replikate teilen sich, was dieser Host hat. Kleinere Maschinentypen oder weniger Replikate wählen, um das zu vermeiden.</translation>
    </message>
</context>
<context>
    <name>Trainyard::ImportanceChart</name>
    <message>
        <source>Hyperparameter importance</source>
        <translation>Wichtigkeit der Hyperparameter</translation>
    </message>
    <message>
        <source>Each hyperparameter&apos;s share of the objective&apos;s variance</source>
        <translation>Anteil jedes Hyperparameters an der Varianz des Zielwerts</translation>
    </message>
    <message>
        <source>Importance is measured once 2 trials have succeeded.</source>
        <translation>Die Wichtigkeit wird gemessen, sobald 2 Versuche erfolgreich waren.</translation>
    </message>
    <message>
        <source>importance</source>
        <translation>Wichtigkeit</translation>
    </message>
    <message>
        <source>Share of the objective&apos;s variance</source>
        <translation>Anteil an der Varianz des Zielwerts</translation>
    </message>
    <message numerus="yes">
        <source>%1. Over %n succeeded trial(s).</source>
        <translation>
            <numerusform>%1. Über %n erfolgreichen Versuch.</numerusform>
            <numerusform>%1. Über %n erfolgreiche Versuche.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::IntermediateValuesChart</name>
    <message>
        <source>Intermediate values</source>
        <translation>Zwischenwerte</translation>
    </message>
    <message>
        <source>Each trial&apos;s reported objective by step</source>
        <translation>Der gemeldete Zielwert jedes Versuchs nach Schritt</translation>
    </message>
    <message>
        <source>No trial reported an intermediate value yet: a trial reports one each time it calls hypertune&apos;s report_hyperparameter_tuning_metric().</source>
        <translation>Noch kein Versuch hat einen Zwischenwert gemeldet: ein Versuch meldet einen bei jedem Aufruf von hypertunes report_hyperparameter_tuning_metric().</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielwert</translation>
    </message>
    <message>
        <source>Stopped early</source>
        <translation>Früh gestoppt</translation>
    </message>
    <message>
        <source>trial %1</source>
        <translation>Versuch %1</translation>
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
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <source>%1 done</source>
        <translation>%1 erledigt</translation>
    </message>
    <message>
        <source>%1 / %2 done</source>
        <translation>%1 / %2 erledigt</translation>
    </message>
    <message>
        <source>Batch prediction</source>
        <translation>Batch-Vorhersage</translation>
    </message>
    <message>
        <source>Instances predicted: %1, errors: %2, of %3 in the input; results in %4</source>
        <translation>Vorhergesagte Instanzen: %1, Fehler: %2, von %3 in der Eingabe; Ergebnisse in %4</translation>
    </message>
    <message>
        <source>(not yet counted)</source>
        <translation>(noch nicht gezählt)</translation>
    </message>
    <message>
        <source>Built-in algorithm, tuning</source>
        <translation>Integrierter Algorithmus, Tuning</translation>
    </message>
    <message>
        <source>Built-in algorithm</source>
        <translation>Integrierter Algorithmus</translation>
    </message>
    <message>
        <source>Hyperparameter tuning</source>
        <translation>Hyperparameter-Tuning</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Replicas / progress</source>
        <extracomment>A training job&apos;s replicas (master + workers + parameter servers); a batch prediction&apos;s instances done.</extracomment>
        <translation>Replikate / Fortschritt</translation>
    </message>
    <message>
        <source>Training: master + workers + parameter servers (+ evaluators). Batch prediction: the instances done.</source>
        <translation>Training: Master + Worker + Parameterserver (+ Evaluatoren). Batch-Vorhersage: die erledigten Instanzen.</translation>
    </message>
</context>
<context>
    <name>Trainyard::JobValidation</name>
    <message>
        <source>A job ID is required.</source>
        <translation>Eine Job-ID ist erforderlich.</translation>
    </message>
    <message>
        <source>A job ID may be at most 128 characters long (this one has %1).</source>
        <translation>Eine Job-ID darf höchstens 128 Zeichen lang sein (diese hat %1).</translation>
    </message>
    <message>
        <source>A job ID must start with a letter.</source>
        <translation>Eine Job-ID muss mit einem Buchstaben beginnen.</translation>
    </message>
    <message>
        <source>A job ID may contain only letters, digits and underscores, not &quot;%1&quot;.</source>
        <translation>Eine Job-ID darf nur Buchstaben, Ziffern und Unterstriche enthalten, nicht „%1“.</translation>
    </message>
    <message>
        <source>A job may have at most 64 labels (this one has %1).</source>
        <translation>Ein Job darf höchstens 64 Labels haben (dieser hat %1).</translation>
    </message>
    <message>
        <source>A label key must not be empty.</source>
        <translation>Der Schlüssel eines Labels darf nicht leer sein.</translation>
    </message>
    <message>
        <source>A label key may be at most 63 characters long.</source>
        <translation>Der Schlüssel eines Labels darf höchstens 63 Zeichen lang sein.</translation>
    </message>
    <message>
        <source>A label key must start with a lowercase letter.</source>
        <translation>Der Schlüssel eines Labels muss mit einem Kleinbuchstaben beginnen.</translation>
    </message>
    <message>
        <source>A label key may contain only lowercase letters, digits, &apos;_&apos; and &apos;-&apos;.</source>
        <translation>Der Schlüssel eines Labels darf nur Kleinbuchstaben, Ziffern, „_“ und „-“ enthalten.</translation>
    </message>
    <message>
        <source>A label value may be at most 63 characters long.</source>
        <translation>Der Wert eines Labels darf höchstens 63 Zeichen lang sein.</translation>
    </message>
    <message>
        <source>A label value may contain only lowercase letters, digits, &apos;_&apos; and &apos;-&apos; (&quot;%1&quot;).</source>
        <translation>Der Wert eines Labels darf nur Kleinbuchstaben, Ziffern, „_“ und „-“ enthalten („%1“).</translation>
    </message>
    <message>
        <source>pythonModule is required: the Python module to run, e.g. trainer.task.</source>
        <translation>pythonModule ist erforderlich: das auszuführende Python-Modul, z. B. trainer.task.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Python module name (dotted identifiers, e.g. trainer.task).</source>
        <extracomment>%1 is the pythonModule the job gives.</extracomment>
        <translation>„%1“ ist kein Python-Modulname (durch Punkte getrennte Bezeichner, z. B. trainer.task).</translation>
    </message>
    <message>
        <source>At least one training package is required (a directory with setup.py or pyproject.toml, or an sdist .tar.gz).</source>
        <translation>Mindestens ein Trainingspaket ist erforderlich (ein Verzeichnis mit setup.py oder pyproject.toml oder ein sdist-.tar.gz).</translation>
    </message>
    <message>
        <source>A package URI must not be empty.</source>
        <translation>Eine Paket-URI darf nicht leer sein.</translation>
    </message>
    <message>
        <source>%1 must not be negative.</source>
        <extracomment>%1 is an API field name (workerCount, maxFailedTrials …), kept as is.</extracomment>
        <translation>%1 darf nicht negativ sein.</translation>
    </message>
    <message>
        <source>%1 must be at least 1.</source>
        <extracomment>%1 is an API field name (maxTrials, maxParallelTrials), kept as is.</extracomment>
        <translation>%1 muss mindestens 1 sein.</translation>
    </message>
    <message>
        <source>%1 is a Cloud TPU; Cloud TPUs exist only in Google Cloud and this workstation has none.</source>
        <extracomment>%1 is a machine type (cloud_tpu) or an accelerator type (TPU_V2).</extracomment>
        <translation>%1 ist eine Cloud TPU; Cloud TPUs gibt es nur in Google Cloud, und diese Workstation hat keine.</translation>
    </message>
    <message>
        <source>Unknown scale tier &quot;%1&quot;; expected one of %2.</source>
        <extracomment>%1 is the scale tier the job gives, %2 the list of scale tiers (BASIC, STANDARD_1 …).</extracomment>
        <translation>Unbekannte Skalierungsstufe „%1“; erwartet wird eine von: %2.</translation>
    </message>
    <message>
        <source>%1 is not available here: %2</source>
        <extracomment>%1 is a scale tier (BASIC_TPU), %2 the machine catalog&apos;s reason.</extracomment>
        <translation>%1 ist hier nicht verfügbar: %2</translation>
    </message>
    <message>
        <source>masterType is required when scaleTier is CUSTOM.</source>
        <translation>masterType ist erforderlich, wenn scaleTier CUSTOM ist.</translation>
    </message>
    <message>
        <source>%1 can only be set when scaleTier is CUSTOM (scaleTier is %2).</source>
        <extracomment>%1 is an API field name (masterType, workerCount, acceleratorConfig …), %2 the job&apos;s scale tier.</extracomment>
        <translation>%1 kann nur gesetzt werden, wenn scaleTier CUSTOM ist (scaleTier ist %2).</translation>
    </message>
    <message>
        <source>%1 is required when %2 is %3.</source>
        <extracomment>%1 is a machine type field (workerType …), %2 its count field (workerCount …), %3 the count.</extracomment>
        <translation>%1 ist erforderlich, wenn %2 %3 ist.</translation>
    </message>
    <message>
        <source>Unknown machine type &quot;%1&quot;; use a Compute Engine type such as n1-standard-4 or a legacy type such as standard (see /v1/projects/-/machineTypes).</source>
        <extracomment>%1 is the machine type the job gives. &quot;Compute Engine&quot; is Google&apos;s product name.</extracomment>
        <translation>Unbekannter Maschinentyp „%1“; verwenden Sie einen Compute-Engine-Typ wie n1-standard-4 oder einen Legacy-Typ wie standard (siehe /v1/projects/-/machineTypes).</translation>
    </message>
    <message>
        <source>All machine types of a job must be Compute Engine types or all legacy types; %1 is a Compute Engine type but %2 is not.</source>
        <extracomment>%1 is a machine type (n1-standard-4), %2 an API field and its machine type (&quot;masterType complex_model_m&quot;).</extracomment>
        <translation>Die Maschinentypen eines Jobs müssen alle Compute-Engine-Typen oder alle Legacy-Typen sein; %1 ist ein Compute-Engine-Typ, %2 aber nicht.</translation>
    </message>
    <message>
        <source>All machine types of a job must be Compute Engine types or all legacy types; %1 is a legacy type but %2 is not.</source>
        <extracomment>%1 is a machine type (complex_model_m), %2 an API field and its machine type (&quot;masterType n1-standard-4&quot;).</extracomment>
        <translation>Die Maschinentypen eines Jobs müssen alle Compute-Engine-Typen oder alle Legacy-Typen sein; %1 ist ein Legacy-Typ, %2 aber nicht.</translation>
    </message>
    <message>
        <source>An accelerator type is required when count is set.</source>
        <translation>Ein Beschleunigertyp ist erforderlich, wenn count gesetzt ist.</translation>
    </message>
    <message>
        <source>Unknown accelerator type &quot;%1&quot;; expected one of %2.</source>
        <extracomment>%1 is the accelerator type the job gives, %2 the list of accelerator types (NVIDIA_TESLA_T4 …).</extracomment>
        <translation>Unbekannter Beschleunigertyp „%1“; erwartet wird einer von: %2.</translation>
    </message>
    <message>
        <source>The accelerator count must be at least 1.</source>
        <translation>Die Anzahl der Beschleuniger muss mindestens 1 sein.</translation>
    </message>
    <message>
        <source>acceleratorConfig can only be used with Compute Engine machine types; %1 is a legacy type that brings %2 x %3 itself. Use e.g. n1-standard-8 with acceleratorConfig instead.</source>
        <extracomment>%1 is a legacy machine type (standard_gpu), %2 x %3 the GPUs it brings (&quot;1 x NVIDIA_TESLA_K80&quot;).</extracomment>
        <translation>acceleratorConfig kann nur mit Compute-Engine-Maschinentypen verwendet werden; %1 ist ein Legacy-Typ, der selbst %2 x %3 mitbringt. Verwenden Sie stattdessen z. B. n1-standard-8 mit acceleratorConfig.</translation>
    </message>
    <message>
        <source>acceleratorConfig can only be used with Compute Engine machine types; %1 is a legacy type. Use e.g. n1-standard-8 with acceleratorConfig instead.</source>
        <extracomment>%1 is a legacy machine type (complex_model_m).</extracomment>
        <translation>acceleratorConfig kann nur mit Compute-Engine-Maschinentypen verwendet werden; %1 ist ein Legacy-Typ. Verwenden Sie stattdessen z. B. n1-standard-8 mit acceleratorConfig.</translation>
    </message>
    <message>
        <source>%1 cannot be attached to machine type %2; machine types that take it: %3.</source>
        <extracomment>%1 is an accelerator type (NVIDIA_TESLA_A100), %2 a machine type, %3 a list of machine types.</extracomment>
        <translation>%1 kann nicht an den Maschinentyp %2 angeschlossen werden; Maschinentypen, die ihn unterstützen: %3.</translation>
    </message>
    <message>
        <source>Machine type %1 takes %2 x %3, not %4.</source>
        <extracomment>%1 is a machine type, %2 the allowed counts (&quot;1, 2, 4&quot;), %3 an accelerator type, %4 the job&apos;s count.</extracomment>
        <translation>Der Maschinentyp %1 unterstützt %2 x %3, nicht %4.</translation>
    </message>
    <message>
        <source>this host has no GPUs</source>
        <extracomment>The second half of a sentence (&quot;The cluster asks for 2 GPUs in all; this host has no GPUs.&quot;).</extracomment>
        <translation>dieser Host hat keine GPUs</translation>
    </message>
    <message numerus="yes">
        <source>this host has %n GPU(s) (%1), %2 of which can serve %3</source>
        <extracomment>The second half of a sentence (&quot;The cluster asks for 3 GPUs in all; this host has …&quot;). %1 is the list of the host&apos;s GPUs (&quot;0: Tesla T4 (NVIDIA_TESLA_T4), 1: …&quot;), %2 a count, %3 an accelerator type.</extracomment>
        <translation>
            <numerusform>dieser Host hat %n GPU (%1), davon für %3 geeignet: %2</numerusform>
            <numerusform>dieser Host hat %n GPUs (%1), davon für %3 geeignet: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>The %1 asks for %2 x %3 per replica (%4 in all); %5.</source>
        <extracomment>%1 is a replica role as TF_CONFIG names it (master, worker, ps, evaluator; kept as is), %2 x %3 the GPUs per replica (&quot;2 x NVIDIA_TESLA_T4&quot;), %4 the GPUs of that type in all, %5 &quot;this host has …&quot;.</extracomment>
        <translation>Die Rolle %1 fordert %2 x %3 pro Replikat an (%4 insgesamt); %5.</translation>
    </message>
    <message numerus="yes">
        <source>The cluster asks for %n GPU(s) in all; %1.</source>
        <extracomment>%1 is &quot;this host has …&quot;.</extracomment>
        <translation>
            <numerusform>Der Cluster fordert insgesamt %n GPU an; %1.</numerusform>
            <numerusform>Der Cluster fordert insgesamt %n GPUs an; %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replica(s) (at most %1 here)</source>
        <extracomment>A part of &quot;This host can never hold the cluster: it asks for %1; …&quot;. %1 is this host&apos;s limit.</extracomment>
        <translation>
            <numerusform>%n Replikat (hier höchstens %1)</numerusform>
            <numerusform>%n Replikate (hier höchstens %1)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 vCPUs (at most %2 here)</source>
        <extracomment>A part of &quot;This host can never hold the cluster: it asks for %1; …&quot;. %2 is this host&apos;s limit.</extracomment>
        <translation>%1 vCPUs (hier höchstens %2)</translation>
    </message>
    <message>
        <source>%1 GB of memory (at most %2 GB here)</source>
        <extracomment>A part of &quot;This host can never hold the cluster: it asks for %1; …&quot;. %2 is this host&apos;s limit.</extracomment>
        <translation>%1 GB Speicher (hier höchstens %2 GB)</translation>
    </message>
    <message>
        <source>goal is required for hyperparameter tuning: MAXIMIZE or MINIMIZE.</source>
        <translation>goal ist für die Hyperparameter-Optimierung erforderlich: MAXIMIZE oder MINIMIZE.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid job ID.</source>
        <extracomment>%1 is the resumePreviousJobId the job gives.</extracomment>
        <translation>„%1“ ist keine gültige Job-ID.</translation>
    </message>
    <message>
        <source>At least one parameter is required for hyperparameter tuning.</source>
        <translation>Die Hyperparameter-Optimierung benötigt mindestens einen Parameter.</translation>
    </message>
    <message>
        <source>categoricalValues are only for CATEGORICAL parameters.</source>
        <translation>categoricalValues gibt es nur für CATEGORICAL-Parameter.</translation>
    </message>
    <message>
        <source>discreteValues are only for DISCRETE parameters.</source>
        <translation>discreteValues gibt es nur für DISCRETE-Parameter.</translation>
    </message>
    <message>
        <source>minValue/maxValue are only for DOUBLE and INTEGER parameters.</source>
        <translation>minValue/maxValue gibt es nur für DOUBLE- und INTEGER-Parameter.</translation>
    </message>
    <message>
        <source>parameterName is required.</source>
        <translation>parameterName ist erforderlich.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid parameter name (letters, digits, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;; it is passed to the trainer as --NAME).</source>
        <extracomment>%1 is the parameterName the job gives; --NAME is a command-line flag, kept as is.</extracomment>
        <translation>„%1“ ist kein gültiger Parametername (Buchstaben, Ziffern, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;; er wird dem Trainer als --NAME übergeben).</translation>
    </message>
    <message>
        <source>Duplicate parameter name &quot;%1&quot;.</source>
        <translation>Doppelter Parametername „%1“.</translation>
    </message>
    <message>
        <source>type is required: DOUBLE, INTEGER, CATEGORICAL or DISCRETE.</source>
        <translation>type ist erforderlich: DOUBLE, INTEGER, CATEGORICAL oder DISCRETE.</translation>
    </message>
    <message>
        <source>minValue is required for %1 parameters.</source>
        <extracomment>%1 is a parameter type (DOUBLE or INTEGER).</extracomment>
        <translation>minValue ist für %1-Parameter erforderlich.</translation>
    </message>
    <message>
        <source>maxValue is required for %1 parameters.</source>
        <extracomment>%1 is a parameter type (DOUBLE or INTEGER).</extracomment>
        <translation>maxValue ist für %1-Parameter erforderlich.</translation>
    </message>
    <message>
        <source>minValue of an INTEGER parameter must be an integer.</source>
        <translation>minValue eines INTEGER-Parameters muss eine ganze Zahl sein.</translation>
    </message>
    <message>
        <source>maxValue of an INTEGER parameter must be an integer.</source>
        <translation>maxValue eines INTEGER-Parameters muss eine ganze Zahl sein.</translation>
    </message>
    <message>
        <source>maxValue (%1) must be greater than minValue (%2).</source>
        <translation>maxValue (%1) muss größer als minValue (%2) sein.</translation>
    </message>
    <message>
        <source>DOUBLE parameters cannot be searched with algorithm GRID_SEARCH; use INTEGER, CATEGORICAL or DISCRETE, or another algorithm.</source>
        <translation>DOUBLE-Parameter können mit dem Algorithmus GRID_SEARCH nicht durchsucht werden; verwenden Sie INTEGER, CATEGORICAL oder DISCRETE oder einen anderen Algorithmus.</translation>
    </message>
    <message>
        <source>CATEGORICAL parameters need categoricalValues.</source>
        <translation>CATEGORICAL-Parameter benötigen categoricalValues.</translation>
    </message>
    <message>
        <source>categoricalValues must be distinct.</source>
        <translation>Die Werte von categoricalValues müssen verschieden sein.</translation>
    </message>
    <message>
        <source>DISCRETE parameters need discreteValues.</source>
        <translation>DISCRETE-Parameter benötigen discreteValues.</translation>
    </message>
    <message>
        <source>discreteValues must be strictly increasing; %1 follows %2.</source>
        <extracomment>%1 and %2 are two values of discreteValues; %1 comes right after %2.</extracomment>
        <translation>discreteValues muss streng aufsteigend sein; %1 folgt auf %2.</translation>
    </message>
    <message>
        <source>%1 needs values greater than 0; the lowest is %2.</source>
        <extracomment>%1 is a scale type (UNIT_LOG_SCALE, UNIT_REVERSE_LOG_SCALE), %2 the lowest value.</extracomment>
        <translation>%1 benötigt Werte größer als 0; der kleinste ist %2.</translation>
    </message>
    <message>
        <source>CATEGORICAL parameters have no scale.</source>
        <translation>CATEGORICAL-Parameter haben keine Skala.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a duration; write seconds with an &quot;s&quot; suffix, e.g. &quot;7200s&quot;.</source>
        <extracomment>%1 is the duration the job gives; &quot;7200s&quot; is the API&apos;s duration format, kept as is.</extracomment>
        <translation>„%1“ ist keine Dauer; schreiben Sie Sekunden mit dem Suffix „s“, z. B. „7200s“.</translation>
    </message>
    <message>
        <source>%1 must be greater than 0s.</source>
        <extracomment>%1 is an API field name (maxRunningTime, maxWaitTime), kept as is.</extracomment>
        <translation>%1 muss größer als 0s sein.</translation>
    </message>
    <message>
        <source>priority must be between 0 and 1000.</source>
        <translation>priority muss zwischen 0 und 1000 liegen.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a runtime version; expected MAJOR.MINOR, e.g. &quot;2.11&quot;.</source>
        <extracomment>%1 is the runtimeVersion the job gives.</extracomment>
        <translation>„%1“ ist keine Laufzeitversion; erwartet wird MAJOR.MINOR, z. B. „2.11“.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Python version; expected MAJOR.MINOR, e.g. &quot;3.7&quot;.</source>
        <extracomment>%1 is the pythonVersion the job gives.</extracomment>
        <translation>„%1“ ist keine Python-Version; erwartet wird MAJOR.MINOR, z. B. „3.7“.</translation>
    </message>
    <message numerus="yes">
        <source>This host can never hold the cluster: it asks for %1; this host has %n CPU(s) and %2 GB of memory, and a job may use %3 vCPUs per CPU, %4 GB per GB of memory and %5 replicas per CPU (at least %6). Use fewer or smaller replicas.</source>
        <extracomment>%1 is a list of what the cluster asks for (&quot;61 replicas (at most 32 here), 244 vCPUs (at most 64 here)&quot;), %n this host&apos;s CPUs, %2 its memory, %3 to %6 the host policy&apos;s limits.</extracomment>
        <translation>
            <numerusform>Dieser Host kann den Cluster nie aufnehmen: Er fordert %1 an; dieser Host hat %n CPU und %2 GB Speicher, und ein Job darf %3 vCPUs pro CPU, %4 GB pro GB Speicher und %5 Replikate pro CPU (mindestens %6) nutzen. Verwenden Sie weniger oder kleinere Replikate.</numerusform>
            <numerusform>Dieser Host kann den Cluster nie aufnehmen: Er fordert %1 an; dieser Host hat %n CPUs und %2 GB Speicher, und ein Job darf %3 vCPUs pro CPU, %4 GB pro GB Speicher und %5 Replikate pro CPU (mindestens %6) nutzen. Verwenden Sie weniger oder kleinere Replikate.</numerusform>
        </translation>
    </message>
    <message>
        <source>maxFailedTrials (%1) must not be more than maxTrials (%2): the study ends before that many trials can fail. 0 lets the service decide.</source>
        <extracomment>%1 is the maxFailedTrials the job gives, %2 its maxTrials (API field names, kept as is).</extracomment>
        <translation>maxFailedTrials (%1) darf nicht größer als maxTrials (%2) sein: die Studie endet, bevor so viele Versuche fehlschlagen können. 0 überlässt es dem Dienst.</translation>
    </message>
    <message>
        <source>discreteValues holds %1 values; at most %2 are allowed.</source>
        <extracomment>%1 is how many discreteValues the job gives, %2 the limit (1000).</extracomment>
        <translation>discreteValues enthält %1 Werte; höchstens %2 sind erlaubt.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a clean path: it must have no &quot;.&quot;, &quot;..&quot; or empty components.</source>
        <extracomment>%1 is the path as given.</extracomment>
        <translation>&quot;%1&quot; ist kein bereinigter Pfad: er darf keine Komponenten &quot;.&quot;, &quot;..&quot; oder leere Komponenten enthalten.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a container image reference ([host[:port]/]name[:tag][@sha256:digest], e.g. localhost/trainer:1).</source>
        <extracomment>%1 is the imageUri the job gives.</extracomment>
        <translation>„%1“ ist keine Container-Image-Referenz ([Host[:Port]/]Name[:Tag][@sha256:Digest], z. B. localhost/trainer:1).</translation>
    </message>
    <message>
        <source>%1 can be set only together with imageUri (a custom container).</source>
        <extracomment>%1 is containerCommand or containerArgs, kept as is.</extracomment>
        <translation>%1 kann nur zusammen mit imageUri (einem eigenen Container) angegeben werden.</translation>
    </message>
    <message>
        <source>containerArgs and trainingInput.args are mutually exclusive: give the arguments in one of them.</source>
        <translation>containerArgs und trainingInput.args schließen einander aus: Geben Sie die Argumente in einem der beiden an.</translation>
    </message>
    <message>
        <source>%1 must not be set with masterConfig.imageUri: every replica runs a container image.</source>
        <extracomment>%1 is an API field name (runtimeVersion, packageUris …), kept as is.</extracomment>
        <translation>%1 darf mit masterConfig.imageUri nicht angegeben werden: Jedes Replikat führt ein Container-Image aus.</translation>
    </message>
    <message>
        <source>An argument may be at most %2 bytes long (the kernel&apos;s limit for one argument); this one has %1.</source>
        <extracomment>%1 and %2 are byte counts.</extracomment>
        <translation>Ein Argument darf höchstens %2 Byte lang sein (die Grenze des Kernels für ein Argument); dieses hat %1.</translation>
    </message>
    <message>
        <source>The arguments together may be at most %2 bytes; these have %1. Pass large inputs as a file in the package or the job dir.</source>
        <translation>Die Argumente dürfen zusammen höchstens %2 Byte lang sein; diese haben %1. Große Eingaben als Datei im Paket oder im Jobverzeichnis übergeben.</translation>
    </message>
    <message>
        <source>At most %1 package URIs are allowed (the service&apos;s limit); this job gives %2.</source>
        <translation>Höchstens %1 Paket-URIs sind erlaubt (die Grenze des Dienstes); dieser Job gibt %2 an.</translation>
    </message>
    <message>
        <source>A job may be at most %2 bytes as JSON; this one has %1.</source>
        <translation>Ein Job darf als JSON höchstens %2 Byte groß sein; dieser hat %1.</translation>
    </message>
    <message>
        <source>A package URI must be a path of fewer than %1 bytes, without NUL characters.</source>
        <translation>Eine Paket-URI muss ein Pfad mit weniger als %1 Byte sein, ohne NUL-Zeichen.</translation>
    </message>
    <message>
        <source>A project ID is required.</source>
        <translation>Eine Projekt-ID ist erforderlich.</translation>
    </message>
    <message>
        <source>A project ID has 6 to 30 characters (this one has %1), or is &quot;%2&quot;.</source>
        <translation>Eine Projekt-ID hat 6 bis 30 Zeichen (diese hat %1) oder lautet „%2“.</translation>
    </message>
    <message>
        <source>A project ID must start with a lowercase letter.</source>
        <translation>Eine Projekt-ID muss mit einem Kleinbuchstaben beginnen.</translation>
    </message>
    <message>
        <source>A project ID cannot end with a hyphen.</source>
        <translation>Eine Projekt-ID darf nicht mit einem Bindestrich enden.</translation>
    </message>
    <message>
        <source>A project ID may contain only lowercase letters, digits and hyphens, not &quot;%1&quot;.</source>
        <translation>Eine Projekt-ID darf nur Kleinbuchstaben, Ziffern und Bindestriche enthalten, nicht „%1“.</translation>
    </message>
    <message>
        <source>%1 is a built-in algorithm&apos;s image: name it as masterConfig.imageUri (the other replicas run the master&apos;s).</source>
        <extracomment>%1 is the image URI; masterConfig.imageUri is an API field, kept as is.</extracomment>
        <translation>%1 ist das Image eines integrierten Algorithmus: Geben Sie es als masterConfig.imageUri an (die anderen Replikate führen das des Masters aus).</translation>
    </message>
    <message>
        <source>%1 is not a built-in algorithm Trainyard runs (image classification, object detection, BERT and TabNet need TensorFlow, which Debian does not ship). The built-in algorithms here: %2.</source>
        <extracomment>%1 is the image the job names, %2 the list of image URIs Trainyard runs.</extracomment>
        <translation>%1 ist kein integrierter Algorithmus, den Trainyard ausführt (Bildklassifizierung, Objekterkennung, BERT und TabNet benötigen TensorFlow, das Debian nicht mitliefert). Die integrierten Algorithmen hier: %2.</translation>
    </message>
    <message>
        <source>%1 writes its model under the job dir: set jobDir (gcloud&apos;s --job-dir).</source>
        <extracomment>%1 is the algorithm&apos;s name.</extracomment>
        <translation>%1 schreibt sein Modell in das Jobverzeichnis: Setzen Sie jobDir (--job-dir von gcloud).</translation>
    </message>
    <message>
        <source>A built-in algorithm takes no %1: give its arguments in trainingInput.args (after -- on the gcloud command line).</source>
        <extracomment>%1 is containerCommand or containerArgs; trainingInput.args is an API field. Kept as is.</extracomment>
        <translation>Ein integrierter Algorithmus unterstützt kein %1: Geben Sie seine Argumente in trainingInput.args an (nach -- in der gcloud-Befehlszeile).</translation>
    </message>
    <message>
        <source>%1 needs scaleTier CUSTOM with a master and at least one worker (not %2).</source>
        <extracomment>%1 is the algorithm&apos;s name, %2 the scale tier.</extracomment>
        <translation>%1 benötigt scaleTier CUSTOM mit einem Master und mindestens einem Worker (nicht %2).</translation>
    </message>
    <message>
        <source>%1 needs a master and at least one worker: set workerCount to 1 or more.</source>
        <translation>%1 benötigt einen Master und mindestens einen Worker: Setzen Sie workerCount auf 1 oder mehr.</translation>
    </message>
    <message>
        <source>%1 takes no parameter servers: the replicas train together with XGBoost&apos;s own collective.</source>
        <translation>%1 unterstützt keine Parameterserver: Die Replikate trainieren gemeinsam über das eigene Collective von XGBoost.</translation>
    </message>
    <message>
        <source>%1 takes no evaluators.</source>
        <translation>%1 unterstützt keine Evaluatoren.</translation>
    </message>
    <message>
        <source>%1 trains on one replica: use scaleTier BASIC, BASIC_GPU or CUSTOM with no workers (not %2).</source>
        <extracomment>%1 is the algorithm&apos;s name, %2 the scale tier.</extracomment>
        <translation>%1 trainiert auf einem Replikat: Verwenden Sie scaleTier BASIC, BASIC_GPU oder CUSTOM ohne Worker (nicht %2).</translation>
    </message>
    <message>
        <source>%1 trains on one replica, the master: set no other replicas (for distributed training, use %2).</source>
        <extracomment>%1 is the algorithm&apos;s name, %2 the distributed XGBoost image URI.</extracomment>
        <translation>%1 trainiert auf einem Replikat, dem Master: Legen Sie keine weiteren Replikate fest (für verteiltes Training verwenden Sie %2).</translation>
    </message>
    <message>
        <source>A job has a trainingInput or a predictionInput, not both.</source>
        <translation>Ein Job hat einen trainingInput oder einen predictionInput, nicht beides.</translation>
    </message>
    <message>
        <source>Exactly one of modelName, versionName and uri must be given (the model&apos;s default version, one version, or a model folder); %1 given.</source>
        <translation>Genau eines von modelName, versionName und uri muss angegeben werden (die Standardversion des Modells, eine Version oder ein Modellordner); %1 angegeben.</translation>
    </message>
    <message>
        <source>modelName must be projects/PROJECT/models/MODEL (&quot;%1&quot;).</source>
        <translation>modelName muss projects/PROJECT/models/MODEL sein („%1“).</translation>
    </message>
    <message>
        <source>versionName must be projects/PROJECT/models/MODEL/versions/VERSION (&quot;%1&quot;).</source>
        <translation>versionName muss projects/PROJECT/models/MODEL/versions/VERSION sein („%1“).</translation>
    </message>
    <message>
        <source>The path must be absolute (&quot;%1&quot;).</source>
        <translation>Der Pfad muss absolut sein („%1“).</translation>
    </message>
    <message>
        <source>dataFormat is required: JSON, TEXT or CSV.</source>
        <translation>dataFormat ist erforderlich: JSON, TEXT oder CSV.</translation>
    </message>
    <message>
        <source>%1 input cannot be read here: this system has no TensorFlow runtime. Give JSON, TEXT or CSV lines.</source>
        <translation>%1-Eingaben können hier nicht gelesen werden: Dieses System hat keine TensorFlow-Laufzeit. Geben Sie JSON-, TEXT- oder CSV-Zeilen an.</translation>
    </message>
    <message>
        <source>outputDataFormat must be JSON or CSV, not %1.</source>
        <translation>outputDataFormat muss JSON oder CSV sein, nicht %1.</translation>
    </message>
    <message>
        <source>inputPaths is required: at least one file or pattern.</source>
        <translation>inputPaths ist erforderlich: mindestens eine Datei oder ein Muster.</translation>
    </message>
    <message>
        <source>A wildcard (*) is allowed only in the last part of a path, as the service allows (&quot;%1&quot;).</source>
        <translation>Ein Platzhalter (*) ist nur im letzten Teil eines Pfads erlaubt, wie beim Dienst („%1“).</translation>
    </message>
    <message>
        <source>outputPath is required.</source>
        <translation>outputPath ist erforderlich.</translation>
    </message>
    <message>
        <source>maxWorkerCount must be at least 1.</source>
        <translation>maxWorkerCount muss mindestens 1 sein.</translation>
    </message>
    <message>
        <source>batchSize must be between 1 and 10000 records.</source>
        <translation>batchSize muss zwischen 1 und 10000 Datensätzen liegen.</translation>
    </message>
    <message>
        <source>The job dir</source>
        <translation>Das Jobverzeichnis</translation>
    </message>
    <message>
        <source>the job dir</source>
        <translation>das Jobverzeichnis</translation>
    </message>
    <message>
        <source>The model folder</source>
        <translation>Der Modellordner</translation>
    </message>
    <message>
        <source>the model folder</source>
        <translation>der Modellordner</translation>
    </message>
    <message>
        <source>The output folder</source>
        <translation>Der Ausgabeordner</translation>
    </message>
    <message>
        <source>the output folder</source>
        <translation>der Ausgabeordner</translation>
    </message>
    <message>
        <source>The input file</source>
        <translation>Die Eingabedatei</translation>
    </message>
    <message>
        <source>the input file</source>
        <translation>die Eingabedatei</translation>
    </message>
    <message>
        <source>The package</source>
        <translation>Das Paket</translation>
    </message>
    <message>
        <source>the package</source>
        <translation>das Paket</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a local folder or file: on this workstation %2 is on this host, given as an absolute path.</source>
        <extracomment>%1 is the path as given (a URL), %2 what the field names (&quot;the job dir&quot;).</extracomment>
        <translation>„%1“ ist kein lokaler Ordner und keine lokale Datei: Auf dieser Workstation liegt %2 auf diesem Host und wird als absoluter Pfad angegeben.</translation>
    </message>
    <message>
        <source>%1 contains a NUL character, which no file path can hold.</source>
        <extracomment>%1 is what the field names (&quot;The job dir&quot;).</extracomment>
        <translation>%1 enthält ein NUL-Zeichen, das kein Dateipfad enthalten kann.</translation>
    </message>
    <message>
        <source>A folder name in %4, &quot;%1…&quot;, is %2 bytes long; a folder name on this system has at most %3.</source>
        <extracomment>%1 is the start of the long folder name, %2 and %3 byte counts, %4 what the field names (&quot;the job dir&quot;).</extracomment>
        <translation>Ein Ordnername (%4), „%1…“, ist %2 Bytes lang; ein Ordnername hat auf diesem System höchstens %3.</translation>
    </message>
    <message>
        <source>%1 is %2 bytes long; a path on this system has fewer than %3.</source>
        <extracomment>%1 is what the field names (&quot;The job dir&quot;), %2 and %3 are byte counts.</extracomment>
        <translation>%1 ist %2 Bytes lang; ein Pfad hat auf diesem System weniger als %3.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an absolute path: %2 is used as it is given, so &quot;~&quot; and relative paths are not expanded. Give a full path such as /home/you/jobs/run1.</source>
        <extracomment>%1 is the path as given, %2 what the field names (&quot;the job dir&quot;); &quot;~&quot; and relative paths are not expanded.</extracomment>
        <translation>„%1“ ist kein absoluter Pfad: %2 wird so verwendet, wie angegeben, „~“ und relative Pfade werden also nicht erweitert. Geben Sie einen vollständigen Pfad an, etwa /home/sie/jobs/run1.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; lies outside the files a job may use: /proc, /sys and /dev name the kernel&apos;s processes and devices (/proc/self is the executor itself), never a job&apos;s files, which lie in %2.</source>
        <extracomment>%1 is the path as given, %2 the folders (comma-separated) where jobs&apos; files lie.</extracomment>
        <translation>„%1“ liegt außerhalb der Dateien, die ein Job verwenden darf: /proc, /sys und /dev bezeichnen Prozesse und Geräte des Kernels (/proc/self ist der Executor selbst), nie Dateien eines Jobs, die in %2 liegen.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is, holds or lies in one of the executor&apos;s own folders (its database, access tokens, audit log, keys and settings), which no job may use: %2 must lie elsewhere.</source>
        <extracomment>%1 is the path as given, %2 what the field names (&quot;The job dir&quot;).</extracomment>
        <translation>„%1“ ist, enthält oder liegt in einem der eigenen Ordner des Executors (seine Datenbank, Zugriffstokens, Audit-Log, Schlüssel und Einstellungen), die kein Job verwenden darf: %2 muss woanders liegen.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; lies outside the folders where this executor keeps jobs&apos; files (%2): %3 must lie inside one of them (the executor&apos;s --job-dir-root option sets them).</source>
        <extracomment>%1 is the path as given, %2 the folders (comma-separated) it may lie in, %3 what the field names (&quot;the job dir&quot;).</extracomment>
        <translation>„%1“ liegt außerhalb der Ordner, in denen dieser Executor die Dateien von Jobs ablegt (%2): %3 muss in einem davon liegen (die Option --job-dir-root des Executors legt sie fest).</translation>
    </message>
    <message>
        <source>The package %1 does not exist on the executor&apos;s host.</source>
        <extracomment>%1 is the package path as given.</extracomment>
        <translation>Das Paket %1 existiert auf dem Host des Executors nicht.</translation>
    </message>
    <message>
        <source>The package %1 is neither a source distribution (.tar.gz, .zip) nor a wheel (.whl).</source>
        <extracomment>%1 is the package file as given.</extracomment>
        <translation>Das Paket %1 ist weder eine Quelldistribution (.tar.gz, .zip) noch ein Wheel (.whl).</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is in Cloud Storage, which this executor cannot reach: copy it to this host and give %2 as an absolute path here.</source>
        <extracomment>%1 is the path as given, %2 what the field names (&quot;the job dir&quot;).</extracomment>
        <translation>&quot;%1&quot; liegt in Cloud Storage, das dieser Executor nicht erreicht: Kopieren Sie es auf diesen Rechner und geben Sie %2 hier als absoluten Pfad an.</translation>
    </message>
    <message>
        <source>The package folder %1 has neither setup.py nor pyproject.toml, nor an __init__.py (a package folder, as gcloud&apos;s --package-path), so pip cannot build it.</source>
        <extracomment>%1 is the package folder as given.</extracomment>
        <translation>Der Paketordner %1 hat weder setup.py noch pyproject.toml noch eine __init__.py (ein Paketordner wie bei gcloud --package-path), daher kann pip ihn nicht bauen.</translation>
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
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Metriken</translation>
    </message>
    <message>
        <source>Resumed from &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Fortgesetzt von &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Resumed from &lt;b&gt;%1&lt;/b&gt; (%2)</source>
        <translation>Fortgesetzt von &lt;b&gt;%1&lt;/b&gt; (%2)</translation>
    </message>
    <message>
        <source>trial %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>Checkpoints the cluster resumed from</source>
        <translation>Checkpoints, von denen aus der Cluster fortgesetzt wurde</translation>
    </message>
    <message>
        <source>From the trainer&apos;s &quot;Resuming from checkpoint&quot; log lines (master-replica-0)</source>
        <translation>Aus den Logzeilen „Resuming from checkpoint“ des Trainers (master-replica-0)</translation>
    </message>
    <message>
        <source>Show in &amp;Logs</source>
        <translation>In &amp;Logs zeigen</translation>
    </message>
    <message>
        <source>The failed replica&apos;s logs, at its first error</source>
        <translation>Die Logs des fehlgeschlagenen Replikats, bei seinem ersten Fehler</translation>
    </message>
    <message>
        <source>Show l&amp;ess</source>
        <translation>&amp;Weniger zeigen</translation>
    </message>
    <message>
        <source>Show &amp;more</source>
        <translation>&amp;Mehr zeigen</translation>
    </message>
    <message>
        <source>&amp;Cancel Job</source>
        <translation>Job &amp;abbrechen</translation>
    </message>
    <message>
        <source>&amp;Keep Running</source>
        <translation>&amp;Weiterlaufen lassen</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Trial %1</source>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>Trial %1 (the latest)</source>
        <translation>Versuch %1 (der neueste)</translation>
    </message>
    <message>
        <source>The replicas of one trial; select trials in the Trials tab to see theirs.</source>
        <translation>Die Replikate eines Versuchs; wählen Sie Versuche im Tab „Versuche“, um deren Replikate zu sehen.</translation>
    </message>
    <message>
        <source>started %1 ago</source>
        <translation>vor %1 gestartet</translation>
    </message>
    <message>
        <source>Cancel Job…</source>
        <translation>Job abbrechen…</translation>
    </message>
    <message>
        <source>Cancel Job</source>
        <translation>Job abbrechen</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation>Vorhersagen</translation>
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
        <source>stdout and stderr</source>
        <translation>stdout und stderr</translation>
    </message>
    <message>
        <source>stdout only</source>
        <translation>Nur stdout</translation>
    </message>
    <message>
        <source>stderr only</source>
        <translation>Nur stderr</translation>
    </message>
    <message>
        <source>Which of the replicas&apos; output streams to show (stderr holds Python&apos;s logging, warnings and tracebacks)</source>
        <translation>Welche Ausgabeströme der Replikate gezeigt werden (stderr enthält Pythons Logging, Warnungen und Tracebacks)</translation>
    </message>
    <message>
        <source>Trial %1</source>
        <extracomment>%1 is a trial ID of a tuning job (&quot;3&quot;).</extracomment>
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>Only this trial&apos;s lines (selected in the Trials tab)</source>
        <translation>Nur die Zeilen dieses Versuchs (im Tab „Versuche“ ausgewählt)</translation>
    </message>
    <message>
        <source>No error below this line.</source>
        <translation>Kein Fehler unterhalb dieser Zeile.</translation>
    </message>
    <message>
        <source>No error above this line.</source>
        <translation>Kein Fehler oberhalb dieser Zeile.</translation>
    </message>
    <message>
        <source>No error in the lines the filters show.</source>
        <translation>Kein Fehler in den Zeilen, die die Filter zeigen.</translation>
    </message>
    <message>
        <source>No error in this log.</source>
        <translation>Kein Fehler in diesem Log.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln line(s)</source>
        <translation>
            <numerusform>%Ln Zeile</numerusform>
            <numerusform>%Ln Zeilen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln line(s)</source>
        <translation>
            <numerusform>%1 von %Ln Zeile</numerusform>
            <numerusform>%1 von %Ln Zeilen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MachineCatalog</name>
    <message>
        <source>Cloud TPUs exist only in Google Cloud; a workstation has none.</source>
        <translation>Cloud TPUs gibt es nur in Google Cloud; eine Workstation hat keine.</translation>
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
        <source>The service&apos;s filter syntax: field:value (prefix with a trailing *), field=value, joined by AND; fields jobId, state, labels.KEY, createTime (also &lt; &gt; &lt;= &gt;=). Ctrl+F</source>
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
        <source>&lt;b&gt;Trainyard&lt;/b&gt;&lt;p&gt;AI Platform Training&apos;s workflow on your workstation: submit training jobs, watch their replicas and logs.&lt;/p&gt;</source>
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
        <source>Describe</source>
        <translation>Beschreiben</translation>
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
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Submit Job…</source>
        <translation>Job &amp;senden…</translation>
    </message>
    <message>
        <source>Submit from checkpoint %1</source>
        <translation>Vom Checkpoint %1 aus senden</translation>
    </message>
    <message>
        <source>Removed the unused checkpoint copy %1</source>
        <translation>Nicht verwendete Checkpoint-Kopie %1 entfernt</translation>
    </message>
    <message>
        <source>No jobs yet</source>
        <translation>Noch keine Jobs</translation>
    </message>
    <message>
        <source>Trainyard runs AI Platform Training jobs on this workstation: each replica is a process with the service&apos;s TF_CONFIG, --job-dir and logs. Start with the bundled Fashion-MNIST sample (about a minute), bring a gcloud config file, or describe a job step by step.</source>
        <translation>Trainyard führt Jobs von AI Platform Training auf dieser Workstation aus: Jedes Replikat ist ein Prozess mit TF_CONFIG, --job-dir und Logs wie beim Dienst. Beginnen Sie mit dem mitgelieferten Fashion-MNIST-Beispiel (etwa eine Minute), bringen Sie eine gcloud-Konfigurationsdatei mit, oder beschreiben Sie einen Job Schritt für Schritt.</translation>
    </message>
    <message>
        <source>&amp;Run the sample</source>
        <translation>Beispiel a&amp;usführen</translation>
    </message>
    <message>
        <source>Submits the bundled Fashion-MNIST trainer (trainer.task, BASIC, 2 epochs) with a job dir under your data folder</source>
        <translation>Sendet den mitgelieferten Fashion-MNIST-Trainer (trainer.task, BASIC, 2 Epochen) mit einem Jobverzeichnis in Ihrem Datenordner</translation>
    </message>
    <message>
        <source>&amp;Import a gcloud config file…</source>
        <translation>gcloud-Konfigurationsdatei &amp;importieren…</translation>
    </message>
    <message>
        <source>Submit a &amp;job… (Ctrl+N)</source>
        <translation>Job &amp;senden… (Strg+N)</translation>
    </message>
    <message>
        <source>No job matches the filter.</source>
        <translation>Kein Job passt zum Filter.</translation>
    </message>
    <message>
        <source>&amp;Clear Filter</source>
        <translation>Filter &amp;löschen</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>&amp;Übersicht</translation>
    </message>
    <message>
        <source>&amp;Topology</source>
        <translation>&amp;Topologie</translation>
    </message>
    <message>
        <source>&amp;Logs</source>
        <translation>&amp;Logs</translation>
    </message>
    <message>
        <source>&amp;Checkpoints</source>
        <translation>&amp;Checkpoints</translation>
    </message>
    <message>
        <source>&amp;Metrics</source>
        <translation>&amp;Metriken</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>&amp;Nächster Tab</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>&amp;Vorheriger Tab</translation>
    </message>
    <message>
        <source>Submit S&amp;imilar…</source>
        <translation>Ä&amp;hnlichen Job senden…</translation>
    </message>
    <message>
        <source>&amp;Import gcloud Config File…</source>
        <translation>gcloud-Konfigurationsdatei &amp;importieren…</translation>
    </message>
    <message>
        <source>&amp;Run the Sample</source>
        <translation>Beispiel a&amp;usführen</translation>
    </message>
    <message>
        <source>&amp;Cancel Job…</source>
        <translation>Job &amp;abbrechen…</translation>
    </message>
    <message>
        <source>Copy Job &amp;ID</source>
        <translation>Job-I&amp;D kopieren</translation>
    </message>
    <message>
        <source>&amp;Open Job Directory</source>
        <translation>Jobverzeichnis &amp;öffnen</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;Filter Syntax</source>
        <translation>&amp;Filtersyntax</translation>
    </message>
    <message>
        <source>Restored the job draft you kept (%1). Cancel and Discard to start over.</source>
        <translation>Der behaltene Jobentwurf wurde wiederhergestellt (%1). Wählen Sie Abbrechen und dann Verwerfen, um neu zu beginnen.</translation>
    </message>
    <message>
        <source>no job ID yet</source>
        <translation>noch keine Job-ID</translation>
    </message>
    <message>
        <source>Not connected to an executor yet.</source>
        <translation>Noch nicht mit einem Executor verbunden.</translation>
    </message>
    <message>
        <source>Run the sample</source>
        <translation>Beispiel ausführen</translation>
    </message>
    <message>
        <source>The bundled sample trainer was not found (trainyard/trainers/fmnist in the data folders, or resources/trainers/fmnist beside the build).</source>
        <translation>Der mitgelieferte Beispieltrainer wurde nicht gefunden (trainyard/trainers/fmnist in den Datenordnern oder resources/trainers/fmnist neben dem Build).</translation>
    </message>
    <message>
        <source>Submitting the sample job %1…</source>
        <translation>Beispieljob %1 wird gesendet…</translation>
    </message>
    <message>
        <source>The sample job was refused: %1</source>
        <translation>Der Beispieljob wurde abgelehnt: %1</translation>
    </message>
    <message>
        <source>Submitted %1: staging the trainer, then training for 2 epochs.</source>
        <translation>%1 gesendet: Der Trainer wird bereitgestellt, danach wird 2 Epochen lang trainiert.</translation>
    </message>
    <message>
        <source>Import a gcloud Config File</source>
        <translation>gcloud-Konfigurationsdatei importieren</translation>
    </message>
    <message>
        <source>gcloud config files (*.yaml *.yml *.json);;All files (*)</source>
        <translation>gcloud-Konfigurationsdateien (*.yaml *.yml *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>%1 does not load: %2</source>
        <translation>%1 lässt sich nicht laden: %2</translation>
    </message>
    <message>
        <source>The filter hides %1.</source>
        <translation>Der Filter blendet %1 aus.</translation>
    </message>
    <message>
        <source>Quit Trainyard</source>
        <translation>Trainyard beenden</translation>
    </message>
    <message>
        <source>Jobs not finished: %1. They keep running in the executor after the console quits.</source>
        <translation>Nicht beendete Jobs: %1. Sie laufen im Executor weiter, nachdem die Konsole beendet wurde.</translation>
    </message>
    <message>
        <source>Start the console again, or use trainyardctl jobs list, to see them; trainyardctl jobs cancel stops one.</source>
        <translation>Um sie zu sehen, starten Sie die Konsole erneut oder verwenden Sie trainyardctl jobs list; trainyardctl jobs cancel stoppt einen.</translation>
    </message>
    <message>
        <source>Do not ask again</source>
        <translation>Nicht mehr fragen</translation>
    </message>
    <message>
        <source>F8 / Shift+F8</source>
        <translation>F8 / Umschalt+F8</translation>
    </message>
    <message>
        <source>Logs: next / previous error</source>
        <translation>Logs: nächster / vorheriger Fehler</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>Logs: follow new lines again</source>
        <translation>Logs: neuen Zeilen wieder folgen</translation>
    </message>
    <message>
        <source>Ctrl+C</source>
        <translation>Strg+C</translation>
    </message>
    <message>
        <source>Logs: copy the selected lines</source>
        <translation>Logs: die ausgewählten Zeilen kopieren</translation>
    </message>
    <message>
        <source>Ctrl++ / Ctrl+- / Ctrl+0</source>
        <translation>Strg++ / Strg+- / Strg+0</translation>
    </message>
    <message>
        <source>Topology: zoom in / out / fit</source>
        <translation>Topologie: vergrößern / verkleinern / einpassen</translation>
    </message>
    <message>
        <source>Ctrl+wheel, drag</source>
        <translation>Strg+Mausrad, Ziehen</translation>
    </message>
    <message>
        <source>Metrics: zoom a chart (double-click resets)</source>
        <translation>Metriken: ein Diagramm zoomen (Doppelklick setzt zurück)</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Filter Syntax</source>
        <translation>Filtersyntax</translation>
    </message>
    <message>
        <source>&lt;p&gt;The job list&apos;s filter uses the service&apos;s syntax (gcloud ai-platform jobs list --filter):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;field:value&lt;/b&gt; matches a value, &lt;b&gt;value*&lt;/b&gt; a prefix: &lt;tt&gt;jobId:fmnist*&lt;/tt&gt;&lt;/li&gt;&lt;li&gt;&lt;b&gt;field=value&lt;/b&gt; matches exactly: &lt;tt&gt;labels.owner=alice&lt;/tt&gt;&lt;/li&gt;&lt;li&gt;fields: &lt;tt&gt;jobId&lt;/tt&gt;, &lt;tt&gt;state&lt;/tt&gt;, &lt;tt&gt;labels.KEY&lt;/tt&gt;, &lt;tt&gt;createTime&lt;/tt&gt; (also with &amp;lt; &amp;gt; &amp;lt;= &amp;gt;=)&lt;/li&gt;&lt;li&gt;terms are joined with &lt;b&gt;AND&lt;/b&gt;: &lt;tt&gt;jobId:fmnist* AND state:FAILED&lt;/tt&gt;&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Ctrl+F goes to the filter; Alt+1…6 show all, running, queued, succeeded, failed or cancelled jobs.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Der Filter der Jobliste verwendet die Syntax des Dienstes (gcloud ai-platform jobs list --filter):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;feld:wert&lt;/b&gt; passt auf einen Wert, &lt;b&gt;wert*&lt;/b&gt; auf ein Präfix: &lt;tt&gt;jobId:fmnist*&lt;/tt&gt;&lt;/li&gt;&lt;li&gt;&lt;b&gt;feld=wert&lt;/b&gt; passt genau: &lt;tt&gt;labels.owner=alice&lt;/tt&gt;&lt;/li&gt;&lt;li&gt;Felder: &lt;tt&gt;jobId&lt;/tt&gt;, &lt;tt&gt;state&lt;/tt&gt;, &lt;tt&gt;labels.KEY&lt;/tt&gt;, &lt;tt&gt;createTime&lt;/tt&gt; (auch mit &amp;lt; &amp;gt; &amp;lt;= &amp;gt;=)&lt;/li&gt;&lt;li&gt;Bedingungen werden mit &lt;b&gt;AND&lt;/b&gt; verknüpft: &lt;tt&gt;jobId:fmnist* AND state:FAILED&lt;/tt&gt;&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Strg+F springt zum Filter; Alt+1…6 zeigen alle, laufende, wartende, erfolgreiche, fehlgeschlagene oder abgebrochene Jobs.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>T&amp;rials</source>
        <translation>Ve&amp;rsuche</translation>
    </message>
    <message>
        <source>Drag / click on an axis, Esc</source>
        <translation>Ziehen / Klick auf eine Achse, Esc</translation>
    </message>
    <message>
        <source>Trials: filter by an interval of an axis / clear it / clear all</source>
        <translation>Versuche: nach einem Intervall einer Achse filtern / es entfernen / alle entfernen</translation>
    </message>
    <message>
        <source>Submit with a trial&apos;s values</source>
        <translation>Mit den Werten eines Versuchs senden</translation>
    </message>
    <message>
        <source>Resume tuning</source>
        <translation>Tuning fortsetzen</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Connecting to %1; the token is in the desktop keyring.</source>
        <translation>Verbindung mit %1 wird hergestellt; das Token liegt im Schlüsselbund des Desktops.</translation>
    </message>
    <message>
        <source>Connecting to %1; the token is kept for this session only.</source>
        <translation>Verbindung mit %1 wird hergestellt; das Token wird nur für diese Sitzung aufbewahrt.</translation>
    </message>
    <message>
        <source>&amp;Connect to Executor…</source>
        <translation>&amp;Mit Executor verbinden…</translation>
    </message>
    <message>
        <source>Use the &amp;Local Executor</source>
        <translation>&amp;Lokalen Executor verwenden</translation>
    </message>
    <message>
        <source>C&amp;lusters</source>
        <translation>C&amp;luster</translation>
    </message>
    <message>
        <source>&amp;Audit Log</source>
        <translation>Audit-&amp;Protokoll</translation>
    </message>
    <message numerus="yes">
        <source>%n jobs selected: Metrics compares them; the other tabs show %1.</source>
        <translation>
            <numerusform>%n Job ausgewählt: Der Tab „Metriken“ vergleicht ihn; die anderen Tabs zeigen %1.</numerusform>
            <numerusform>%n Jobs ausgewählt: Der Tab „Metriken“ vergleicht sie; die anderen Tabs zeigen %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n jobs selected: the tabs show %1.</source>
        <translation>
            <numerusform>%n Job ausgewählt: Die Tabs zeigen %1.</numerusform>
            <numerusform>%n Jobs ausgewählt: Die Tabs zeigen %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Selected: %1</source>
        <translation>Ausgewählt: %1</translation>
    </message>
    <message>
        <source>Mo&amp;del</source>
        <translation>Mo&amp;dell</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelle</translation>
    </message>
    <message>
        <source>Deplo&amp;y Model…</source>
        <translation>Modell bereitstelle&amp;n…</translation>
    </message>
    <message>
        <source>Mod&amp;els</source>
        <translation>Mod&amp;elle</translation>
    </message>
    <message>
        <source>Pred&amp;ictions</source>
        <translation>Vorhersa&amp;gen</translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricChart</name>
    <message>
        <source>CPU (% of one core)</source>
        <translation>CPU (% eines Kerns)</translation>
    </message>
    <message>
        <source>Memory (RSS, MiB)</source>
        <translation>Speicher (RSS, MiB)</translation>
    </message>
    <message>
        <source>GPU utilization (% of one GPU)</source>
        <translation>GPU-Auslastung (% einer GPU)</translation>
    </message>
    <message>
        <source>GPU memory (MiB)</source>
        <translation>GPU-Speicher (MiB)</translation>
    </message>
    <message>
        <source>%1 (hypertune)</source>
        <translation>%1 (hypertune)</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Uhrzeit</translation>
    </message>
    <message>
        <source>Relative time (s)</source>
        <translation>Relative Zeit (s)</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Smoothed</source>
        <translation>Geglättet</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Uhrzeit</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>Relativ</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>%1 konnte nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>SVG export needs Qt SVG, which this build does not have.</source>
        <translation>Der SVG-Export braucht Qt SVG, das dieser Build nicht enthält.</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Zoom zurücksetzen</translation>
    </message>
    <message>
        <source>Export chart as PNG…</source>
        <translation>Diagramm als PNG exportieren…</translation>
    </message>
    <message>
        <source>Export chart as SVG…</source>
        <translation>Diagramm als SVG exportieren…</translation>
    </message>
    <message>
        <source>This build has no Qt SVG.</source>
        <translation>Dieser Build enthält kein Qt SVG.</translation>
    </message>
    <message>
        <source>Export data as CSV</source>
        <translation>Daten als CSV exportieren</translation>
    </message>
    <message>
        <source>Export data as JSON</source>
        <translation>Daten als JSON exportieren</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weitere Reihe</numerusform>
            <numerusform>… und %n weitere Reihen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricRunsModel</name>
    <message numerus="yes">
        <source>%1: %n chart(s)</source>
        <translation>
            <numerusform>%1: %n Diagramm</numerusform>
            <numerusform>%1: %n Diagramme</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricsModel</name>
    <message>
        <source>trial %1</source>
        <translation>Versuch %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricsPanel</name>
    <message>
        <source>Log scale</source>
        <translation>Logarithmische Skala</translation>
    </message>
    <message>
        <source>Ignore outliers</source>
        <translation>Ausreißer ignorieren</translation>
    </message>
    <message>
        <source>Filter tags (regular expression)</source>
        <translation>Tags filtern (regulärer Ausdruck)</translation>
    </message>
    <message>
        <source>Show only the charts whose tag matches this regular expression (case-insensitive)</source>
        <translation>Nur die Diagramme zeigen, deren Tag zu diesem regulären Ausdruck passt (ohne Beachtung der Groß-/Kleinschreibung)</translation>
    </message>
    <message>
        <source>TensorBoard&apos;s smoothing: a debiased exponential moving average</source>
        <translation>Die Glättung von TensorBoard: ein bias-korrigierter exponentieller gleitender Durchschnitt</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Relative time</source>
        <translation>Relative Zeit</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Uhrzeit</translation>
    </message>
    <message>
        <source>Logarithmic y axis (values ≤ 0 are not drawn)</source>
        <translation>Logarithmische Y-Achse (Werte ≤ 0 werden nicht gezeichnet)</translation>
    </message>
    <message>
        <source>Scale the y axis to the 5th–95th percentile of the values</source>
        <translation>Die Y-Achse auf das 5.–95. Perzentil der Werte skalieren</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>Glättung</translation>
    </message>
    <message>
        <source>X axis</source>
        <translation>X-Achse</translation>
    </message>
    <message>
        <source>No metrics yet. Scalars of event files (tfevents) under the job directory, hypertune reports and each replica&apos;s CPU, memory and GPU use appear here while the job runs.</source>
        <translation>Noch keine Metriken. Skalare aus Eventdateien (tfevents) im Jobverzeichnis, hypertune-Berichte und die CPU-, Speicher- und GPU-Nutzung jedes Replikats erscheinen hier, während der Job läuft.</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Ressourcen</translation>
    </message>
    <message>
        <source>Hypertune reports</source>
        <translation>Hypertune-Berichte</translation>
    </message>
    <message numerus="yes">
        <source>%n series</source>
        <translation>
            <numerusform>%n Reihe</numerusform>
            <numerusform>%n Reihen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n charts</source>
        <translation>
            <numerusform>%n Diagramm</numerusform>
            <numerusform>%n Diagramme</numerusform>
        </translation>
    </message>
    <message>
        <source>Not a valid regular expression: %1</source>
        <translation>Kein gültiger regulärer Ausdruck: %1</translation>
    </message>
    <message>
        <source>No chart %1.</source>
        <translation>Kein Diagramm %1.</translation>
    </message>
    <message>
        <source>No series %1.</source>
        <translation>Keine Reihe %1.</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON-Dateien (*.json)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>Daten exportieren</translation>
    </message>
    <message>
        <source>Exported %1.</source>
        <translation>%1 exportiert.</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG-Bilder (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>This job recorded no metrics: no event files (tfevents) under its job directory, no hypertune reports and no resource samples of its replicas.</source>
        <translation>Dieser Job hat keine Metriken aufgezeichnet: keine Ereignisdateien (tfevents) in seinem Jobverzeichnis, keine Hypertune-Berichte und keine Ressourcenmessungen seiner Replikate.</translation>
    </message>
    <message>
        <source>Comparing with %1 (Ctrl+click jobs in the list to add or remove)</source>
        <translation>Vergleich mit %1 (Strg+Klick auf Jobs in der Liste fügt hinzu oder entfernt)</translation>
    </message>
    <message>
        <source>All runs</source>
        <translation>Alle Läufe</translation>
    </message>
    <message>
        <source>Filter runs (regular expression)</source>
        <translation>Läufe filtern (regulärer Ausdruck)</translation>
    </message>
    <message>
        <source>Draw only the runs whose name matches this regular expression (case-insensitive)</source>
        <translation>Nur die Läufe zeichnen, deren Name auf diesen regulären Ausdruck passt (ohne Groß-/Kleinschreibung)</translation>
    </message>
    <message>
        <source>Check or uncheck every run the filter lists</source>
        <translation>Alle Läufe, die der Filter zeigt, an- oder abwählen</translation>
    </message>
    <message>
        <source>Uncheck a run to hide its lines in every chart</source>
        <translation>Einen Lauf abwählen, um seine Linien in allen Diagrammen auszublenden</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>All runs (%1 of %2 drawn)</source>
        <translation>Alle Läufe (%1 von %2 gezeichnet)</translation>
    </message>
</context>
<context>
    <name>Trainyard::ModelPanel</name>
    <message>
        <source>Rows: the true class; columns: the predicted class</source>
        <translation>Zeilen: die wahre Klasse; Spalten: die vorhergesagte Klasse</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>The model folder</source>
        <translation>Der Modellordner</translation>
    </message>
    <message>
        <source>The model appears here when the job has succeeded.</source>
        <translation>Das Modell erscheint hier, wenn der Job erfolgreich abgeschlossen ist.</translation>
    </message>
    <message>
        <source>The model could not be read: %1</source>
        <translation>Das Modell konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the test split</source>
        <translation>den Testdaten</translation>
    </message>
    <message>
        <source>the validation split</source>
        <translation>den Validierungsdaten</translation>
    </message>
    <message numerus="yes">
        <source>%1 (framework %2), measured on %3 (%n row(s)). Model folder: %4</source>
        <extracomment>%1 the algorithm, %2 the framework, %3 &quot;the test split&quot;, %n its rows, %4 the model folder.</extracomment>
        <translation>
            <numerusform>%1 (Framework %2), gemessen an %3 (%n Zeile). Modellordner: %4</numerusform>
            <numerusform>%1 (Framework %2), gemessen an %3 (%n Zeilen). Modellordner: %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trial %1: %2 (framework %3), measured on %4 (%n row(s)). Model folder: %5</source>
        <extracomment>%1 the trial, %2 the algorithm, %3 the framework, %4 &quot;the test split&quot;, %5 the model folder.</extracomment>
        <translation>
            <numerusform>Versuch %1: %2 (Framework %3), gemessen an %4 (%n Zeile). Modellordner: %5</numerusform>
            <numerusform>Versuch %1: %2 (Framework %3), gemessen an %4 (%n Zeilen). Modellordner: %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Predicted against actual</source>
        <translation>Vorhergesagt gegen tatsächlich</translation>
    </message>
    <message>
        <source>actual</source>
        <translation>tatsächlich</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>vorhergesagt</translation>
    </message>
    <message numerus="yes">
        <source>Predicted against actual (%n point(s); mean |residual| %1)</source>
        <extracomment>%1 the mean absolute residual, %n the points drawn.</extracomment>
        <translation>
            <numerusform>Vorhergesagt gegen tatsächlich (%n Punkt; mittleres |Residuum| %1)</numerusform>
            <numerusform>Vorhergesagt gegen tatsächlich (%n Punkte; mittleres |Residuum| %1)</numerusform>
        </translation>
    </message>
    <message>
        <source>total gain</source>
        <translation>Gesamtgewinn</translation>
    </message>
    <message>
        <source>Feature importance (total gain)</source>
        <translation>Merkmalswichtigkeit (Gesamtgewinn)</translation>
    </message>
    <message>
        <source>XGBoost&apos;s total gain of the splits on each CSV column&apos;s features (a categorical column&apos;s one-hot features added up), the 15 largest</source>
        <translation>Der Gesamtgewinn der Splits von XGBoost auf den Merkmalen jeder CSV-Spalte (die One-Hot-Merkmale einer kategorialen Spalte addiert), die 15 größten</translation>
    </message>
    <message>
        <source>Confusion matrix: rows are the actual class, columns the predicted class</source>
        <translation>Konfusionsmatrix: Zeilen sind die tatsächliche Klasse, Spalten die vorhergesagte</translation>
    </message>
    <message>
        <source>No model: the job failed (%1). The Overview tab has the error, and Logs the replica&apos;s lines.</source>
        <translation>Kein Modell: Der Job ist fehlgeschlagen (%1). Der Tab Übersicht zeigt den Fehler, Logs die Zeilen des Replikats.</translation>
    </message>
    <message>
        <source>No model: the job was cancelled before it trained one.</source>
        <translation>Kein Modell: Der Job wurde abgebrochen, bevor er eines trainiert hat.</translation>
    </message>
    <message>
        <source>share of total gain</source>
        <translation>Anteil am Gesamtgewinn</translation>
    </message>
    <message>
        <source>share of mean |attribution|</source>
        <translation>Anteil an der mittleren |Attribution|</translation>
    </message>
    <message>
        <source>Feature importance</source>
        <translation>Merkmalswichtigkeit</translation>
    </message>
    <message>
        <source>XGBoost&apos;s total gain of the splits on each CSV column&apos;s features, and %1 (a categorical column&apos;s one-hot features added up), each as a share of its sum; the 10 columns with the most gain</source>
        <translation>Der Gesamtgewinn der XGBoost-Splits auf den Merkmalen jeder CSV-Spalte und %1 (die One-hot-Merkmale einer kategorialen Spalte addiert), jeweils als Anteil an der Summe; die 10 Spalten mit dem meisten Gewinn</translation>
    </message>
</context>
<context>
    <name>Trainyard::ModelsView</name>
    <message>
        <source>&amp;New Model…</source>
        <translation>&amp;Neues Modell…</translation>
    </message>
    <message>
        <source>&amp;Deploy…</source>
        <translation>&amp;Bereitstellen…</translation>
    </message>
    <message>
        <source>Set De&amp;fault</source>
        <translation>Als &amp;Standard</translation>
    </message>
    <message>
        <source>De&amp;lete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Predict</source>
        <translation>Vorhersa&amp;gen</translation>
    </message>
    <message>
        <source>One instance per line: a JSON value ([1.5, 2.0, …]), or a CSV row of the training table for a built-in algorithm&apos;s model</source>
        <translation>Eine Instanz pro Zeile: ein JSON-Wert ([1.5, 2.0, …]) oder, für das Modell eines integrierten Algorithmus, eine CSV-Zeile der Trainingstabelle</translation>
    </message>
    <message>
        <source>Predict</source>
        <translation>Vorhersagen</translation>
    </message>
    <message>
        <source>Could not read the models: %1</source>
        <translation>Die Modelle konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>Aktualisiert %1</translation>
    </message>
    <message>
        <source>Version %1 of %2 (%3)</source>
        <translation>Version %1 von %2 (%3)</translation>
    </message>
    <message>
        <source>Model %1: its default version, %2</source>
        <translation>Modell %1: seine Standardversion, %2</translation>
    </message>
    <message>
        <source>Model %1 has no version yet: deploy one.</source>
        <translation>Modell %1 hat noch keine Version: Stellen Sie eine bereit.</translation>
    </message>
    <message>
        <source>Select a model or a version to predict with.</source>
        <translation>Wählen Sie ein Modell oder eine Version für die Vorhersage.</translation>
    </message>
    <message>
        <source>New Model</source>
        <translation>Neues Modell</translation>
    </message>
    <message>
        <source>Name (a letter first, then letters, digits and underscores):</source>
        <translation>Name (zuerst ein Buchstabe, dann Buchstaben, Ziffern und Unterstriche):</translation>
    </message>
    <message>
        <source>Could not create model %1: %2</source>
        <translation>Modell %1 konnte nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>Deploy</source>
        <translation>Bereitstellen</translation>
    </message>
    <message>
        <source>Could not deploy version %1 of %2: %3</source>
        <translation>Version %1 von %2 konnte nicht bereitgestellt werden: %3</translation>
    </message>
    <message>
        <source>Deploying version %1 of %2…</source>
        <translation>Version %1 von %2 wird bereitgestellt…</translation>
    </message>
    <message>
        <source>Set Default</source>
        <translation>Als Standard festlegen</translation>
    </message>
    <message>
        <source>Could not make %1 the default: %2</source>
        <translation>%1 konnte nicht zur Standardversion gemacht werden: %2</translation>
    </message>
    <message>
        <source>version %1 of model %2</source>
        <translation>Version %1 des Modells %2</translation>
    </message>
    <message>
        <source>model %1</source>
        <translation>Modell %1</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete %1? Its prediction nodes stop and its copy of the files is removed.</source>
        <translation>%1 löschen? Ihre Vorhersageknoten werden beendet und ihre Kopie der Dateien entfernt.</translation>
    </message>
    <message>
        <source>Delete %1? A model with versions cannot be deleted.</source>
        <translation>%1 löschen? Ein Modell mit Versionen kann nicht gelöscht werden.</translation>
    </message>
    <message>
        <source>Could not delete %1: %2</source>
        <translation>%1 konnte nicht gelöscht werden: %2</translation>
    </message>
    <message>
        <source>Type at least one instance.</source>
        <translation>Geben Sie mindestens eine Instanz ein.</translation>
    </message>
    <message>
        <source>Predicting…</source>
        <translation>Vorhersage läuft…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>Vorhersage</translation>
    </message>
    <message>
        <source>P(%1)</source>
        <translation>P(%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n prediction(s) in %1 ms</source>
        <translation>
            <numerusform>%n Vorhersage in %1 ms</numerusform>
            <numerusform>%n Vorhersagen in %1 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a version to see its log: its nodes&apos; starts, exits and output, and each request when the model logs predictions.</source>
        <translation>Wählen Sie eine Version, um ihr Protokoll zu sehen: Start, Ende und Ausgabe ihrer Knoten und jede Anfrage, wenn das Modell Vorhersagen protokolliert.</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Could not read the log: %1</source>
        <translation>Das Protokoll konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>class %1 (%2)</source>
        <translation>Klasse %1 (%2)</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Diagramme</translation>
    </message>
    <message>
        <source>&amp;Add as Instance</source>
        <translation>Als Instanz &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Append the form&apos;s values to the instances as one row (an empty field: a missing value)</source>
        <translation>Die Werte des Formulars als eine Zeile an die Instanzen anhängen (ein leeres Feld: ein fehlender Wert)</translation>
    </message>
    <message>
        <source>mean %1</source>
        <extracomment>The field of a numeric column: %1 is the training data&apos;s mean, used when the field is empty.</extracomment>
        <translation>Mittelwert %1</translation>
    </message>
    <message>
        <source>(not used by the model)</source>
        <translation>(vom Modell nicht verwendet)</translation>
    </message>
    <message>
        <source>Column %1 (%2):</source>
        <extracomment>A form row&apos;s label: %1 is the column&apos;s number in the training CSV (the target is column 1), %2 its type.</extracomment>
        <translation>Spalte %1 (%2):</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>E&amp;xplain</source>
        <translation>E&amp;rklären</translation>
    </message>
    <message>
        <source>Select a version to explain its predictions.</source>
        <translation>Wählen Sie eine Version, um ihre Vorhersagen zu erklären.</translation>
    </message>
    <message>
        <source>Explain the instances with %1: each feature&apos;s share of the prediction</source>
        <translation>Die Instanzen mit %1 erklären: der Anteil jedes Merkmals an der Vorhersage</translation>
    </message>
    <message>
        <source>Version %1 has no explanation method: deploy a version with one (Deploy…, Explanations) to explain its predictions.</source>
        <translation>Version %1 hat keine Erklärungsmethode: stellen Sie eine Version mit einer bereit (Bereitstellen…, Erklärungen), um ihre Vorhersagen zu erklären.</translation>
    </message>
    <message>
        <source>Explaining…</source>
        <translation>Erkläre…</translation>
    </message>
    <message>
        <source>Explanation failed: %1</source>
        <translation>Erklärung fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::ParallelCoordinates</name>
    <message>
        <source>Parallel coordinates of the trials</source>
        <translation>Parallele Koordinaten der Versuche</translation>
    </message>
    <message>
        <source>One vertical axis per hyperparameter and one for the objective; each trial is a line through its values. Drag along an axis to filter, click an axis to clear its filter, Escape clears every filter.</source>
        <translation>Eine senkrechte Achse je Hyperparameter und eine für den Zielwert; jeder Versuch ist eine Linie durch seine Werte. Entlang einer Achse ziehen filtert, ein Klick auf eine Achse entfernt ihren Filter, Escape entfernt alle Filter.</translation>
    </message>
    <message>
        <source>log scale</source>
        <translation>log. Skala</translation>
    </message>
    <message>
        <source>reverse log</source>
        <translation>umgekehrt log.</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielwert</translation>
    </message>
    <message>
        <source>↑ maximize</source>
        <translation>↑ maximieren</translation>
    </message>
    <message>
        <source>↓ minimize</source>
        <translation>↓ minimieren</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>noch keiner</translation>
    </message>
    <message>
        <source>%1 (step %2)</source>
        <translation>%1 (Schritt %2)</translation>
    </message>
    <message>
        <source>Trial %1 — %2</source>
        <translation>Versuch %1 — %2</translation>
    </message>
    <message>
        <source>This job has no hyperparameters to plot.</source>
        <translation>Dieser Job hat keine Hyperparameter zum Darstellen.</translation>
    </message>
    <message>
        <source>colour: %1 (viridis)</source>
        <translation>Farbe: %1 (viridis)</translation>
    </message>
    <message>
        <source>filtered out</source>
        <translation>ausgefiltert</translation>
    </message>
    <message>
        <source>no objective yet</source>
        <translation>noch kein Zielwert</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n trials pass the filters</source>
        <translation>
            <numerusform>%1 von %n Versuch besteht die Filter</numerusform>
            <numerusform>%1 von %n Versuchen bestehen die Filter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trials</source>
        <translation>
            <numerusform>%n Versuch</numerusform>
            <numerusform>%n Versuche</numerusform>
        </translation>
    </message>
    <message>
        <source>Drag to brush another interval of %1; click to clear its filter</source>
        <translation>Ziehen markiert ein anderes Intervall von %1; ein Klick entfernt seinen Filter</translation>
    </message>
    <message>
        <source>Drag along %1 to keep only the trials in an interval</source>
        <translation>Entlang %1 ziehen, um nur die Versuche in einem Intervall zu behalten</translation>
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
        <source>The language of the console. &quot;System default&quot; follows the desktop&apos;s language settings (LANGUAGE, LC_MESSAGES, LANG).</source>
        <translation>Die Sprache der Konsole. „Systemstandard“ folgt den Spracheinstellungen des Desktops (LANGUAGE, LC_MESSAGES, LANG).</translation>
    </message>
    <message>
        <source>The new language applies to windows opened from now on; restart Trainyard to see it everywhere.</source>
        <translation>Die neue Sprache gilt für Fenster, die ab jetzt geöffnet werden; starten Sie Trainyard neu, um sie überall zu sehen.</translation>
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
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
</context>
<context>
    <name>Trainyard::SubmitWizard</name>
    <message>
        <source>Submit Training Job</source>
        <translation>Trainingsjob senden</translation>
    </message>
    <message>
        <source>&amp;Submit</source>
        <translation>&amp;Senden</translation>
    </message>
    <message>
        <source>No executor is connected.</source>
        <translation>Kein Executor verbunden.</translation>
    </message>
    <message>
        <source>Close the Submit Job Wizard?</source>
        <translation>Sende-Assistenten schließen?</translation>
    </message>
    <message>
        <source>The job you filled in has not been submitted.</source>
        <translation>Der ausgefüllte Job wurde nicht gesendet.</translation>
    </message>
    <message>
        <source>Keep it as a draft to continue with the next Submit Job…, or discard it.</source>
        <translation>Behalten Sie ihn als Entwurf, um beim nächsten „Job senden…“ weiterzumachen, oder verwerfen Sie ihn.</translation>
    </message>
    <message>
        <source>&amp;Keep Draft</source>
        <translation>&amp;Entwurf behalten</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>Continue &amp;Editing</source>
        <translation>Weiter &amp;bearbeiten</translation>
    </message>
    <message>
        <source>%1 — Step %2 of %3</source>
        <extracomment>%1 is the wizard&apos;s title (&quot;Submit Training Job&quot;, &quot;Submit from checkpoint …&quot;).</extracomment>
        <translation>%1 — Schritt %2 von %3</translation>
    </message>
    <message>
        <source>scale tier %1</source>
        <translation>Skalierungsstufe %1</translation>
    </message>
    <message>
        <source>master %1</source>
        <translation>Master %1</translation>
    </message>
    <message numerus="yes">
        <source>%n worker(s)</source>
        <translation>
            <numerusform>%n Worker</numerusform>
            <numerusform>%n Worker</numerusform>
        </translation>
    </message>
    <message>
        <source>module %1</source>
        <translation>Modul %1</translation>
    </message>
    <message numerus="yes">
        <source>%n argument(s)</source>
        <translation>
            <numerusform>%n Argument</numerusform>
            <numerusform>%n Argumente</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>tuning: %1 trials of %n hyperparameter(s)</source>
        <translation>
            <numerusform>Optimierung: %1 Versuche mit %n Hyperparameter</numerusform>
            <numerusform>Optimierung: %1 Versuche mit %n Hyperparametern</numerusform>
        </translation>
    </message>
    <message>
        <source>region %1</source>
        <translation>Region %1</translation>
    </message>
    <message>
        <source>runtime %1</source>
        <translation>Laufzeit %1</translation>
    </message>
    <message>
        <source>job dir</source>
        <translation>Jobverzeichnis</translation>
    </message>
    <message>
        <source>Imported %1.</source>
        <translation>%1 importiert.</translation>
    </message>
    <message>
        <source>Imported %1: %2.</source>
        <translation>%1 importiert: %2.</translation>
    </message>
    <message>
        <source>The package is the folder it is in, %1: change it on the next page if not.</source>
        <translation>Das Paket ist der Ordner, in dem sie liegt, %1: Falls nicht, auf der nächsten Seite ändern.</translation>
    </message>
    <message>
        <source>Submit Batch Prediction Job</source>
        <translation>Batch-Vorhersagejob übermitteln</translation>
    </message>
</context>
<context>
    <name>Trainyard::TensorTableModel</name>
    <message>
        <source>%1
Stored as %2</source>
        <translation>%1
Gespeichert als %2</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>Elemente</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
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
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>up %1</source>
        <translation>läuft seit %1</translation>
    </message>
    <message>
        <source>CPU %1 %</source>
        <translation>CPU %1 %</translation>
    </message>
    <message>
        <source>on %1</source>
        <translation>auf %1</translation>
    </message>
    <message>
        <source>Node: %1</source>
        <translation>Knoten: %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::TrainedModel</name>
    <message>
        <source>column %1</source>
        <extracomment>A CSV column by its 1-based position (the target is column 1).</extracomment>
        <translation>Spalte %1</translation>
    </message>
    <message>
        <source>%1 · categorical (%2)</source>
        <translation>%1 · kategorial (%2)</translation>
    </message>
    <message>
        <source>%1 · categorical</source>
        <translation>%1 · kategorial</translation>
    </message>
    <message>
        <source>%1 · numeric</source>
        <translation>%1 · numerisch</translation>
    </message>
</context>
<context>
    <name>Trainyard::TrialsModel</name>
    <message>
        <source>Yes</source>
        <translation>Ja</translation>
    </message>
    <message>
        <source>The best trial so far (highest objective)</source>
        <translation>Der bisher beste Versuch (höchster Zielwert)</translation>
    </message>
    <message>
        <source>The best trial so far (lowest objective)</source>
        <translation>Der bisher beste Versuch (niedrigster Zielwert)</translation>
    </message>
    <message>
        <source>Stopped early by the tuning service&apos;s automated early stopping</source>
        <translation>Vom automatischen vorzeitigen Abbruch des Tuning-Dienstes vorzeitig beendet</translation>
    </message>
    <message>
        <source>Hyperparameter %1 (%2)</source>
        <translation>Hyperparameter %1 (%2)</translation>
    </message>
    <message>
        <source>The objective the tuning maximizes</source>
        <translation>Der Zielwert, den das Tuning maximiert</translation>
    </message>
    <message>
        <source>The objective the tuning minimizes</source>
        <translation>Der Zielwert, den das Tuning minimiert</translation>
    </message>
    <message>
        <source>The training step at which the objective was reported</source>
        <translation>Der Trainingsschritt, zu dem der Zielwert gemeldet wurde</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielwert</translation>
    </message>
    <message>
        <source>%1 ↑</source>
        <extracomment>%1 is the objective&apos;s name; the arrow says whether higher (↑) or lower (↓) is better.</extracomment>
        <translation>%1 ↑</translation>
    </message>
    <message>
        <source>%1 ↓</source>
        <translation>%1 ↓</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Stopped early</source>
        <translation>Vorzeitig beendet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>%1: the latest value the trial reported; its final metric comes when it ends</source>
        <translation>%1: der letzte vom Versuch gemeldete Wert; seine endgültige Metrik folgt, wenn er endet</translation>
    </message>
    <message>
        <source>%1: the trial&apos;s final metric</source>
        <translation>%1: die endgültige Metrik des Versuchs</translation>
    </message>
</context>
<context>
    <name>Trainyard::TrialsPanel</name>
    <message>
        <source>&amp;Submit with these values…</source>
        <translation>Mit diesen Werten &amp;senden…</translation>
    </message>
    <message>
        <source>&amp;Resume tuning…</source>
        <translation>Tuning &amp;fortsetzen…</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Anzeigen:</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Laufend</translation>
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
        <source>Show the trials that are queued, preparing or running</source>
        <translation>Die Versuche anzeigen, die warten, vorbereitet werden oder laufen</translation>
    </message>
    <message>
        <source>Show the trials that succeeded</source>
        <translation>Die erfolgreichen Versuche anzeigen</translation>
    </message>
    <message>
        <source>Show the trials that failed</source>
        <translation>Die fehlgeschlagenen Versuche anzeigen</translation>
    </message>
    <message>
        <source>Show the trials that were cancelled (or are being cancelled)</source>
        <translation>Die abgebrochenen Versuche anzeigen (oder die gerade abgebrochen werden)</translation>
    </message>
    <message>
        <source>&amp;Top</source>
        <translation>&amp;Beste</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Keep only the best trials by the objective (100 %: every trial)</source>
        <translation>Nur die besten Versuche nach dem Zielwert behalten (100 %: alle)</translation>
    </message>
    <message>
        <source>Top percent of trials by objective</source>
        <translation>Prozent der besten Versuche nach dem Zielwert</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>Filter entfernen</translation>
    </message>
    <message>
        <source>Remove every brush and the top-k % filter (Escape in the plot clears the brushes)</source>
        <translation>Alle Achsenauswahlen und den Top-k-%-Filter entfernen (Escape im Diagramm entfernt die Auswahlen)</translation>
    </message>
    <message>
        <source>Drag along an axis to filter the trials; click the axis to clear it.</source>
        <translation>Entlang einer Achse ziehen filtert die Versuche; ein Klick auf die Achse entfernt den Filter.</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Open the submit wizard with this job, without tuning, and the selected trial&apos;s hyperparameters as fixed arguments</source>
        <translation>Den Sendeassistenten mit diesem Job öffnen, ohne Tuning, mit den Hyperparametern des gewählten Versuchs als feste Argumente</translation>
    </message>
    <message>
        <source>Open the submit wizard with a new tuning job that continues this one&apos;s study (resumePreviousJobId)</source>
        <translation>Den Sendeassistenten mit einem neuen Tuning-Job öffnen, der die Studie dieses Jobs fortsetzt (resumePreviousJobId)</translation>
    </message>
    <message>
        <source>The hyperparameter on the scatter&apos;s x axis</source>
        <translation>Der Hyperparameter auf der x-Achse des Streudiagramms</translation>
    </message>
    <message>
        <source>Parameter of the scatter plot</source>
        <translation>Parameter des Streudiagramms</translation>
    </message>
    <message>
        <source>Objective &amp;against</source>
        <translation>Zielwert &amp;gegen</translation>
    </message>
    <message>
        <source>Objective against a parameter</source>
        <translation>Zielwert gegen einen Parameter</translation>
    </message>
    <message>
        <source>Filtered out</source>
        <translation>Ausgefiltert</translation>
    </message>
    <message>
        <source>Best trial</source>
        <translation>Bester Versuch</translation>
    </message>
    <message>
        <source>Best objective so far</source>
        <translation>Bisher bester Zielwert</translation>
    </message>
    <message>
        <source>Best objective so far, by trial number</source>
        <translation>Bisher bester Zielwert, nach Versuchsnummer</translation>
    </message>
    <message>
        <source>Trial&apos;s objective</source>
        <translation>Zielwert des Versuchs</translation>
    </message>
    <message>
        <source>Best so far</source>
        <translation>Bisher bester</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>The job can be resumed once it has ended</source>
        <translation>Der Job kann fortgesetzt werden, sobald er beendet ist</translation>
    </message>
    <message>
        <source>No trials yet: they appear here as the tuning service starts them.</source>
        <translation>Noch keine Versuche: Sie erscheinen hier, sobald der Tuning-Dienst sie startet.</translation>
    </message>
    <message numerus="yes">
        <source>%n trials</source>
        <translation>
            <numerusform>%n Versuch</numerusform>
            <numerusform>%n Versuche</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ended</source>
        <translation>
            <numerusform>%n beendet</numerusform>
            <numerusform>%n beendet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n planned</source>
        <translation>
            <numerusform>%n geplant</numerusform>
            <numerusform>%n geplant</numerusform>
        </translation>
    </message>
    <message>
        <source>best: trial %1 (%2)</source>
        <translation>bester: Versuch %1 (%2)</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Zielwert</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Intermediate values</source>
        <translation>Zwischenwerte</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>Wichtigkeit</translation>
    </message>
</context>
<context>
    <name>Trainyard::VersionChartsPanel</name>
    <message>
        <source>Requests</source>
        <translation>Anfragen</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>Anfragen/s</translation>
    </message>
    <message>
        <source>per second</source>
        <translation>pro Sekunde</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p90</source>
        <translation>p90</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>errors/s</source>
        <translation>Fehler/s</translation>
    </message>
    <message>
        <source>Select a version to chart its requests, latency and errors.</source>
        <translation>Wählen Sie eine Version, um ihre Anfragen, Latenz und Fehler darzustellen.</translation>
    </message>
    <message>
        <source>No request in the last hour.</source>
        <translation>Keine Anfrage in der letzten Stunde.</translation>
    </message>
    <message>
        <source>Last 10 s: %1 requests/s, p50 %2 ms, p99 %3 ms, %4 errors/s</source>
        <extracomment>The latest 10-second interval&apos;s figures.</extracomment>
        <translation>Letzte 10 s: %1 Anfragen/s, p50 %2 ms, p99 %3 ms, %4 Fehler/s</translation>
    </message>
    <message>
        <source>Last 10 s: no request</source>
        <translation>Letzte 10 s: keine Anfrage</translation>
    </message>
</context>
<context>
    <name>Trainyard::VersionDetailsPanel</name>
    <message>
        <source>Select a version (or a model, for its default version) to see its details.</source>
        <translation>Eine Version (oder ein Modell, für seine Standardversion) auswählen, um ihre Details zu sehen.</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>Version:</translation>
    </message>
    <message>
        <source>State:</source>
        <translation>Zustand:</translation>
    </message>
    <message>
        <source>Description:</source>
        <translation>Beschreibung:</translation>
    </message>
    <message>
        <source>Labels:</source>
        <translation>Labels:</translation>
    </message>
    <message>
        <source>Created:</source>
        <translation>Erstellt:</translation>
    </message>
    <message>
        <source>Last use:</source>
        <translation>Zuletzt genutzt:</translation>
    </message>
    <message>
        <source>Framework:</source>
        <translation>Framework:</translation>
    </message>
    <message>
        <source>Runtime version:</source>
        <translation>Laufzeitversion:</translation>
    </message>
    <message>
        <source>Prediction routine:</source>
        <translation>Vorhersageroutine:</translation>
    </message>
    <message>
        <source>Deployment folder:</source>
        <translation>Bereitstellungsordner:</translation>
    </message>
    <message>
        <source>Machine type:</source>
        <translation>Maschinentyp:</translation>
    </message>
    <message>
        <source>Scaling:</source>
        <translation>Skalierung:</translation>
    </message>
    <message>
        <source>Prediction timeout:</source>
        <translation>Zeitlimit der Vorhersage:</translation>
    </message>
    <message>
        <source>Requests (last hour):</source>
        <translation>Anfragen (letzte Stunde):</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source> (the model&apos;s default version)</source>
        <translation> (die Standardversion des Modells)</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>%1 (detected from %2)</source>
        <translation>%1 (erkannt an %2)</translation>
    </message>
    <message>
        <source>the executor&apos;s newest</source>
        <translation>die neueste des Executors</translation>
    </message>
    <message>
        <source>, Python %1</source>
        <translation>, Python %1</translation>
    </message>
    <message>
        <source>%1 from %2</source>
        <translation>%1 aus %2</translation>
    </message>
    <message>
        <source>mls1-c1-m2 (the default)</source>
        <translation>mls1-c1-m2 (Standard)</translation>
    </message>
    <message numerus="yes">
        <source>manual: %n node(s)</source>
        <translation>
            <numerusform>manuell: %n Knoten</numerusform>
            <numerusform>manuell: %n Knoten</numerusform>
        </translation>
    </message>
    <message>
        <source>automatic: %1 to %2 nodes</source>
        <translation>automatisch: %1 bis %2 Knoten</translation>
    </message>
    <message numerus="yes">
        <source>automatic: at least %n node(s)</source>
        <translation>
            <numerusform>automatisch: mindestens %n Knoten</numerusform>
            <numerusform>automatisch: mindestens %n Knoten</numerusform>
        </translation>
    </message>
    <message>
        <source>1 node (no scaling given)</source>
        <translation>1 Knoten (keine Skalierung angegeben)</translation>
    </message>
    <message numerus="yes">
        <source>%n second(s)</source>
        <translation>
            <numerusform>%n Sekunde</numerusform>
            <numerusform>%n Sekunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n second(s) (the default)</source>
        <translation>
            <numerusform>%n Sekunde (Standard)</numerusform>
            <numerusform>%n Sekunden (Standard)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 requests, %2 errors (the executor&apos;s %n-second intervals of the last hour)</source>
        <translation>
            <numerusform>%1 Anfragen, %2 Fehler (die %n-Sekunden-Intervalle des Executors der letzten Stunde)</numerusform>
            <numerusform>%1 Anfragen, %2 Fehler (die %n-Sekunden-Intervalle des Executors der letzten Stunde)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardAppPage</name>
    <message>
        <source>&amp;Folder…</source>
        <translation>&amp;Ordner…</translation>
    </message>
    <message>
        <source>&amp;Archive…</source>
        <translation>&amp;Archiv…</translation>
    </message>
    <message>
        <source>Training application</source>
        <translation>Trainingsanwendung</translation>
    </message>
    <message>
        <source>Folder with setup.py or pyproject.toml, or an sdist .tar.gz</source>
        <translation>Ordner mit setup.py oder pyproject.toml oder ein sdist-.tar.gz</translation>
    </message>
    <message>
        <source>e.g. trainer.task</source>
        <translation>z. B. trainer.task</translation>
    </message>
    <message>
        <source>&amp;Package:</source>
        <translation>&amp;Paket:</translation>
    </message>
    <message>
        <source>&amp;Module:</source>
        <translation>&amp;Modul:</translation>
    </message>
    <message>
        <source>Ar&amp;guments:</source>
        <translation>Ar&amp;gumente:</translation>
    </message>
    <message>
        <source>&amp;Runtime version:</source>
        <translation>&amp;Laufzeitversion:</translation>
    </message>
    <message>
        <source>P&amp;ython version:</source>
        <translation>P&amp;ython-Version:</translation>
    </message>
    <message>
        <source>Package folder</source>
        <translation>Paketordner</translation>
    </message>
    <message>
        <source>Package archive</source>
        <translation>Paketarchiv</translation>
    </message>
    <message>
        <source>Source distributions (*.tar.gz)</source>
        <translation>Quelldistributionen (*.tar.gz)</translation>
    </message>
    <message>
        <source>Runtime default</source>
        <translation>Standard der Laufzeitumgebung</translation>
    </message>
    <message>
        <source>%1 (not in the executor&apos;s catalog)</source>
        <translation>%1 (nicht im Katalog des Executors)</translation>
    </message>
    <message>
        <source>Executor default</source>
        <translation>Standard des Executors</translation>
    </message>
    <message>
        <source>%1 (Python %2, %3)</source>
        <translation>%1 (Python %2, %3)</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 existiert nicht.</translation>
    </message>
    <message>
        <source>%1 is neither a package folder nor a source distribution (.tar.gz).</source>
        <translation>%1 ist weder ein Paketordner noch eine Quelldistribution (.tar.gz).</translation>
    </message>
    <message>
        <source>%1 is not readable.</source>
        <translation>%1 ist nicht lesbar.</translation>
    </message>
    <message>
        <source>Name the module to run, e.g. trainer.task.</source>
        <translation>Geben Sie das auszuführende Modul an, z. B. trainer.task.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Python module name (dotted identifiers, e.g. trainer.task).</source>
        <translation>„%1“ ist kein Python-Modulname (durch Punkte getrennte Bezeichner, z. B. trainer.task).</translation>
    </message>
    <message>
        <source>As on a command line, e.g. --epochs 2 --name &apos;my run&apos;</source>
        <translation>Wie auf einer Befehlszeile, z. B. --epochs 2 --name &apos;mein Lauf&apos;</translation>
    </message>
    <message>
        <source>The trainer&apos;s arguments, split into words as a shell splits them: blanks and new lines separate words, quotes (&apos;…&apos; or &quot;…&quot;) keep blanks inside one word, a backslash escapes the next character.</source>
        <translation>Die Argumente des Trainers, in Wörter zerlegt wie von einer Shell: Leerzeichen und Zeilenumbrüche trennen Wörter, Anführungszeichen (&apos;…&apos; oder &quot;…&quot;) halten Leerzeichen innerhalb eines Wortes, ein Backslash maskiert das nächste Zeichen.</translation>
    </message>
    <message>
        <source>Arguments: a quote is not closed. Close it, or escape a literal quote with a backslash (\&apos;).</source>
        <translation>Argumente: Ein Anführungszeichen ist nicht geschlossen. Schließen Sie es, oder maskieren Sie ein wörtliches Anführungszeichen mit einem Backslash (\&apos;).</translation>
    </message>
    <message>
        <source>The trainer gets no arguments of its own (only --job-dir).</source>
        <translation>Der Trainer erhält keine eigenen Argumente (nur --job-dir).</translation>
    </message>
    <message>
        <source>The trainer&apos;s arguments (sys.argv[1:]): %1</source>
        <extracomment>%1 is a Python list of the words, e.g. [&apos;--epochs&apos;, &apos;2&apos;].</extracomment>
        <translation>Die Argumente des Trainers (sys.argv[1:]): %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;packageUris&lt;/b&gt;: the Python package with the training program, here a folder with setup.py or pyproject.toml or a source distribution (.tar.gz); the executor installs it with pip, offline, before the replicas start.</source>
        <translation>&lt;b&gt;packageUris&lt;/b&gt;: das Python-Paket mit dem Trainingsprogramm, hier ein Ordner mit setup.py oder pyproject.toml oder eine Quelldistribution (.tar.gz); der Executor installiert es offline mit pip, bevor die Replikate starten.</translation>
    </message>
    <message>
        <source>&lt;b&gt;pythonModule&lt;/b&gt; (required): the module each replica runs as python -m MODULE, a dotted name such as trainer.task. The modules of the package are offered.</source>
        <translation>&lt;b&gt;pythonModule&lt;/b&gt; (erforderlich): das Modul, das jedes Replikat als python -m MODUL ausführt, ein Name mit Punkten wie trainer.task. Die Module des Pakets werden angeboten.</translation>
    </message>
    <message>
        <source>&lt;b&gt;runtimeVersion&lt;/b&gt;: picks the Python interpreter the replicas run with; the executor&apos;s catalog lists what this host has.</source>
        <translation>&lt;b&gt;runtimeVersion&lt;/b&gt;: wählt den Python-Interpreter, mit dem die Replikate laufen; der Katalog des Executors zeigt, was dieser Host hat.</translation>
    </message>
    <message>
        <source>&amp;Container image</source>
        <translation>&amp;Container-Image</translation>
    </message>
    <message>
        <source>&lt;b&gt;Custom container&lt;/b&gt; (masterConfig.imageUri): every replica runs this image under podman on the executor&apos;s host, with the job dir mounted at the same path and the same variables (TF_CONFIG …) as a package replica. The arguments and --job-dir go to the image&apos;s entrypoint.</source>
        <translation>&lt;b&gt;Eigener Container&lt;/b&gt; (masterConfig.imageUri): Jedes Replikat führt dieses Image mit podman auf dem Executor-Rechner aus, mit dem Job-Verzeichnis unter demselben Pfad und denselben Variablen (TF_CONFIG …) wie ein Paket-Replikat. Die Argumente und --job-dir gehen an den Einstiegspunkt des Images.</translation>
    </message>
    <message>
        <source>Type to filter the host&apos;s images, e.g. localhost/trainer:1</source>
        <translation>Tippen, um die Images des Rechners zu filtern, z. B. localhost/trainer:1</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
    <message>
        <source>List the images of the executor&apos;s host again (podman images)</source>
        <translation>Die Images des Executor-Rechners erneut auflisten (podman images)</translation>
    </message>
    <message>
        <source>The image&apos;s ENTRYPOINT</source>
        <translation>Der ENTRYPOINT des Images</translation>
    </message>
    <message>
        <source>&lt;b&gt;containerCommand&lt;/b&gt; (optional): replaces the image&apos;s ENTRYPOINT (and its CMD), as shell words, e.g. python3 -m trainer.task.</source>
        <translation>&lt;b&gt;containerCommand&lt;/b&gt; (optional): ersetzt den ENTRYPOINT des Images (und sein CMD), als Shell-Wörter, z. B. python3 -m trainer.task.</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>Führt aus:</translation>
    </message>
    <message>
        <source>%1, created %2</source>
        <translation>%1, erstellt am %2</translation>
    </message>
    <message>
        <source>The executor cannot list its host&apos;s images: %1</source>
        <translation>Der Executor kann die Images seines Rechners nicht auflisten: %1</translation>
    </message>
    <message>
        <source>Pick or type the image every replica runs.</source>
        <translation>Wählen oder tippen Sie das Image, das jedes Replikat ausführt.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an image reference (no blanks; e.g. localhost/trainer:1).</source>
        <translation>„%1“ ist keine Image-Referenz (keine Leerzeichen; z. B. localhost/trainer:1).</translation>
    </message>
    <message>
        <source>%1 is not among the host&apos;s images; the executor will refuse it unless it is there by then (podman build or podman load on the executor&apos;s host).</source>
        <extracomment>%1 is an image reference.</extracomment>
        <translation>%1 ist nicht unter den Images des Rechners; der Executor lehnt es ab, wenn es bis dahin nicht vorhanden ist (podman build oder podman load auf dem Executor-Rechner).</translation>
    </message>
    <message>
        <source>Python pac&amp;kage</source>
        <translation>Python-Pa&amp;ket</translation>
    </message>
    <message>
        <source>Imag&amp;e:</source>
        <translation>Imag&amp;e:</translation>
    </message>
    <message>
        <source>Comman&amp;d:</source>
        <translation>Be&amp;fehl:</translation>
    </message>
    <message>
        <source>The algorithm&apos;s arguments: %1</source>
        <extracomment>%1 is a Python list of the words, e.g. [&apos;--preprocess&apos;, &apos;--training_data_path=/data/t.csv&apos;].</extracomment>
        <translation>Die Argumente des Algorithmus: %1</translation>
    </message>
    <message>
        <source>Other arguments of the algorithm, e.g. --colsample_bylevel=0.8 --seed=7</source>
        <translation>Weitere Argumente des Algorithmus, z. B. --colsample_bylevel=0.8 --seed=7</translation>
    </message>
    <message>
        <source>%1 is a folder without setup.py, pyproject.toml or __init__.py: not a Python package.</source>
        <translation>%1 ist ein Ordner ohne setup.py, pyproject.toml oder __init__.py: kein Python-Paket.</translation>
    </message>
    <message>
        <source>Choose the package to install: a folder with setup.py or pyproject.toml, a package folder (with __init__.py, as gcloud&apos;s --package-path), or a .tar.gz.</source>
        <translation>Wählen Sie das zu installierende Paket: einen Ordner mit setup.py oder pyproject.toml, einen Paketordner (mit __init__.py, wie bei gcloud --package-path) oder eine .tar.gz-Datei.</translation>
    </message>
    <message>
        <source>%1 (runs as Python %2)</source>
        <translation>%1 (läuft als Python %2)</translation>
    </message>
    <message>
        <source>Built-in algorithm</source>
        <translation>Integrierter Algorithmus</translation>
    </message>
    <message>
        <source>The algorithm and the CSV table it trains on, no code: the job runs the service&apos;s algorithm image with these arguments.</source>
        <translation>Der Algorithmus und die CSV-Tabelle, auf der er trainiert, ohne Code: der Job startet das Algorithmus-Image des Dienstes mit diesen Argumenten.</translation>
    </message>
    <message>
        <source>The Python package to install and the module to run (python -m MODULE ARGS…), or a container image of the executor&apos;s host. Drop a package folder or .tar.gz here.</source>
        <translation>Das zu installierende Python-Paket und das auszuführende Modul (python -m MODUL ARGS…) oder ein Container-Image des Executor-Hosts. Einen Paketordner oder ein .tar.gz hier ablegen.</translation>
    </message>
    <message>
        <source>%1 (the service&apos;s Python %2; runs Python %3, %4)</source>
        <translation>%1 (Python %2 laut Dienst; läuft mit Python %3, %4)</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardBatchPage</name>
    <message>
        <source>A &amp;deployed model</source>
        <translation>Ein &amp;bereitgestelltes Modell</translation>
    </message>
    <message>
        <source>A model &amp;folder</source>
        <translation>Ein Modell&amp;ordner</translation>
    </message>
    <message>
        <source>Batch prediction</source>
        <translation>Batch-Vorhersage</translation>
    </message>
    <message>
        <source>Predict every instance of your files with a model: its workers share the files and write prediction.results-NNNNN-of-NNNNN files in the output folder.</source>
        <translation>Jede Instanz Ihrer Dateien mit einem Modell vorhersagen: Die Worker teilen sich die Dateien und schreiben prediction.results-NNNNN-of-NNNNN-Dateien in den Ausgabeordner.</translation>
    </message>
    <message>
        <source>&lt;b&gt;modelName&lt;/b&gt;: the model&apos;s default version predicts, unless you pick a version (&lt;b&gt;versionName&lt;/b&gt;). Only a READY version can.</source>
        <translation>&lt;b&gt;modelName&lt;/b&gt;: Die Standardversion des Modells sagt vorher, sofern Sie keine Version wählen (&lt;b&gt;versionName&lt;/b&gt;). Nur eine Version im Status READY kann das.</translation>
    </message>
    <message>
        <source>e.g. /home/me/jobs/census_1/model</source>
        <translation>z. B. /home/me/jobs/census_1/model</translation>
    </message>
    <message>
        <source>&lt;b&gt;uri&lt;/b&gt;: a folder with model.joblib, model.pkl, model.bst or model.pt (or a built-in algorithm&apos;s model folder), inside the executor&apos;s job-dir roots.</source>
        <translation>&lt;b&gt;uri&lt;/b&gt;: ein Ordner mit model.joblib, model.pkl, model.bst oder model.pt (oder der Modellordner eines integrierten Algorithmus) innerhalb der Jobverzeichnis-Wurzeln des Executors.</translation>
    </message>
    <message>
        <source>e.g. /data/instances-*.json, /data/more.json</source>
        <translation>z. B. /data/instances-*.json, /data/more.json</translation>
    </message>
    <message>
        <source>&lt;b&gt;inputPaths&lt;/b&gt;: files of this machine, separated by commas; a * in a file name matches many, as the service allows.</source>
        <translation>&lt;b&gt;inputPaths&lt;/b&gt;: Dateien dieses Rechners, durch Kommas getrennt; ein * im Dateinamen passt auf viele, wie beim Dienst.</translation>
    </message>
    <message>
        <source>The first instances of the first file show here.</source>
        <translation>Hier erscheinen die ersten Instanzen der ersten Datei.</translation>
    </message>
    <message>
        <source>JSON: a JSON instance a line</source>
        <translation>JSON: eine JSON-Instanz pro Zeile</translation>
    </message>
    <message>
        <source>Text: a JSON instance, or a string, a line</source>
        <translation>Text: eine JSON-Instanz oder eine Zeichenkette pro Zeile</translation>
    </message>
    <message>
        <source>CSV: a row of values a line</source>
        <translation>CSV: eine Zeile von Werten pro Zeile</translation>
    </message>
    <message>
        <source>&lt;b&gt;dataFormat&lt;/b&gt;. TFRecord files cannot be read here: there is no TensorFlow.</source>
        <translation>&lt;b&gt;dataFormat&lt;/b&gt;. TFRecord-Dateien können hier nicht gelesen werden: Es gibt kein TensorFlow.</translation>
    </message>
    <message>
        <source>e.g. /home/me/predictions/census</source>
        <translation>z. B. /home/me/predictions/census</translation>
    </message>
    <message>
        <source>JSON lines: the instance and its prediction</source>
        <translation>JSON-Zeilen: die Instanz und ihre Vorhersage</translation>
    </message>
    <message>
        <source>CSV: the prediction&apos;s values</source>
        <translation>CSV: die Werte der Vorhersage</translation>
    </message>
    <message>
        <source>&lt;b&gt;maxWorkerCount&lt;/b&gt;: workers share the input; on this host at most one per CPU, and one per 64 KiB of input.</source>
        <translation>&lt;b&gt;maxWorkerCount&lt;/b&gt;: Die Worker teilen sich die Eingabe; auf diesem Host höchstens einer pro CPU und einer pro 64 KiB Eingabe.</translation>
    </message>
    <message>
        <source>&lt;b&gt;batchSize&lt;/b&gt;: instances given to one predict() call.</source>
        <translation>&lt;b&gt;batchSize&lt;/b&gt;: Instanzen pro Aufruf von predict().</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modell:</translation>
    </message>
    <message>
        <source>&amp;Input files:</source>
        <translation>&amp;Eingabedateien:</translation>
    </message>
    <message>
        <source>Input f&amp;ormat:</source>
        <translation>Eingabef&amp;ormat:</translation>
    </message>
    <message>
        <source>Output fold&amp;er:</source>
        <translation>Ausgabeord&amp;ner:</translation>
    </message>
    <message>
        <source>Output forma&amp;t:</source>
        <translation>Ausgabeforma&amp;t:</translation>
    </message>
    <message>
        <source>&amp;Batch size:</source>
        <translation>&amp;Batchgröße:</translation>
    </message>
    <message>
        <source>&amp;Workers at most:</source>
        <translation>Höchstens &amp;Worker:</translation>
    </message>
    <message>
        <source>Give an absolute path.</source>
        <translation>Geben Sie einen absoluten Pfad an.</translation>
    </message>
    <message>
        <source>Model Folder</source>
        <translation>Modellordner</translation>
    </message>
    <message>
        <source>Input Files</source>
        <translation>Eingabedateien</translation>
    </message>
    <message>
        <source>Instances (*.json *.jsonl *.txt *.csv);;All files (*)</source>
        <translation>Instanzen (*.json *.jsonl *.txt *.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Output Folder</source>
        <translation>Ausgabeordner</translation>
    </message>
    <message>
        <source>The models cannot be listed: %1</source>
        <translation>Die Modelle können nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>(no model deployed)</source>
        <translation>(kein Modell bereitgestellt)</translation>
    </message>
    <message>
        <source>Default version</source>
        <translation>Standardversion</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1: give an absolute path.</source>
        <translation>%1: Geben Sie einen absoluten Pfad an.</translation>
    </message>
    <message>
        <source>No file matches %1.</source>
        <translation>Keine Datei passt auf %1.</translation>
    </message>
    <message>
        <source>%1: a * is allowed only in the file name.</source>
        <translation>%1: Ein * ist nur im Dateinamen erlaubt.</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1</source>
        <extracomment>%n is a count of files, %1 their size (&quot;1.2 MB&quot;).</extracomment>
        <translation>
            <numerusform>%n Datei, %1</numerusform>
            <numerusform>%n Dateien, %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (not readable here)</source>
        <translation>%1 (hier nicht lesbar)</translation>
    </message>
    <message>
        <source>%1</source>
        <translation>%1</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardComputePage</name>
    <message>
        <source>Master</source>
        <translation>Master</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Worker</translation>
    </message>
    <message>
        <source>Parameter servers</source>
        <translation>Parameterserver</translation>
    </message>
    <message>
        <source>Evaluators</source>
        <translation>Evaluatoren</translation>
    </message>
    <message>
        <source>%1 — %2 vCPUs, %3 GB</source>
        <translation>%1 — %2 vCPUs, %3 GB</translation>
    </message>
    <message>
        <source>%1 × %2 %3 (%4 vCPUs, %5 GB)</source>
        <translation>%1 × %2 %3 (%4 vCPUs, %5 GB)</translation>
    </message>
    <message>
        <source> + %1 × %2</source>
        <translation> + %1 × %2</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Rechenressourcen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Role&lt;/b&gt;</source>
        <translation>&lt;b&gt;Rolle&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Machine type&lt;/b&gt;</source>
        <translation>&lt;b&gt;Maschinentyp&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Count&lt;/b&gt;</source>
        <translation>&lt;b&gt;Anzahl&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Accelerator&lt;/b&gt;</source>
        <translation>&lt;b&gt;Beschleuniger&lt;/b&gt;</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keiner)</translation>
    </message>
    <message>
        <source>A job has exactly one master.</source>
        <translation>Ein Job hat genau einen Master.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Scale tier&lt;/b&gt;</source>
        <translation>&lt;b&gt;Skalierungsstufe&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Your machine types and counts (below)</source>
        <translation>Ihre Maschinentypen und Anzahlen (unten)</translation>
    </message>
    <message>
        <source>Unavailable: %1</source>
        <translation>Nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>Choose a machine type first</source>
        <translation>Wählen Sie zuerst einen Maschinentyp</translation>
    </message>
    <message>
        <source>Comes with %1 × %2</source>
        <translation>Enthält %1 × %2</translation>
    </message>
    <message>
        <source>No accelerators for this machine type</source>
        <translation>Keine Beschleuniger für diesen Maschinentyp</translation>
    </message>
    <message>
        <source>Host not known yet</source>
        <translation>Host noch nicht bekannt</translation>
    </message>
    <message>
        <source>No GPUs on this host</source>
        <translation>Keine GPUs auf diesem Host</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keiner</translation>
    </message>
    <message>
        <source>%1 (%2 on this host)</source>
        <translation>%1 (%2 auf diesem Host)</translation>
    </message>
    <message>
        <source>This host has no GPU this machine type takes</source>
        <translation>Dieser Host hat keine GPU, die dieser Maschinentyp unterstützt</translation>
    </message>
    <message>
        <source>%1 (not on this host)</source>
        <translation>%1 (nicht auf diesem Host)</translation>
    </message>
    <message>
        <source>%1 (more than this host has)</source>
        <translation>%1 (mehr, als dieser Host hat)</translation>
    </message>
    <message>
        <source>%1 (unknown machine type)</source>
        <translation>%1 (unbekannter Maschinentyp)</translation>
    </message>
    <message>
        <source>CUSTOM needs a master machine type.</source>
        <translation>CUSTOM benötigt einen Maschinentyp für den Master.</translation>
    </message>
    <message>
        <source>%1: %2 requested; choose their machine type.</source>
        <translation>%1: %2 angefordert; wählen Sie ihren Maschinentyp.</translation>
    </message>
    <message>
        <source>Choose a scale tier.</source>
        <translation>Wählen Sie eine Skalierungsstufe.</translation>
    </message>
    <message>
        <source>Complete the roles above to see what this job needs.</source>
        <translation>Vervollständigen Sie die Rollen oben, um zu sehen, was dieser Job benötigt.</translation>
    </message>
    <message>
        <source>The executor has not said what this host has yet, so whether the job fits is not known.</source>
        <translation>Der Executor hat noch nicht mitgeteilt, was dieser Host hat; ob der Job passt, ist daher nicht bekannt.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Can never run here:&lt;/b&gt;</source>
        <translation>&lt;b&gt;Kann hier nie laufen:&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s)</source>
        <translation>
            <numerusform>, %n GPU</numerusform>
            <numerusform>, %n GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>Legacy machine types</source>
        <translation>Legacy-Maschinentypen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Machine type&lt;/b&gt; (the service&apos;s rules): required for the master when the scale tier is CUSTOM, and for a role whose count is set; Compute Engine types (n1-…, a2-…) do not mix with legacy ones (standard, large_model …). Its vCPUs and memory are what the executor reserves on this host.</source>
        <translation>&lt;b&gt;Maschinentyp&lt;/b&gt; (Regeln des Dienstes): erforderlich für den Master, wenn die Skalierungsstufe CUSTOM ist, und für eine Rolle mit Anzahl; Compute-Engine-Typen (n1-…, a2-…) mischen sich nicht mit älteren (standard, large_model …). Seine vCPUs und sein Speicher sind, was der Executor auf diesem Host reserviert.</translation>
    </message>
    <message>
        <source>&lt;b&gt;acceleratorConfig&lt;/b&gt; (the service&apos;s rules): a type and a count the machine type allows; here only GPUs this host has. Each replica gets its own GPUs (CUDA_VISIBLE_DEVICES).</source>
        <translation>&lt;b&gt;acceleratorConfig&lt;/b&gt; (Regeln des Dienstes): ein Typ und eine Anzahl, die der Maschinentyp erlaubt; hier nur GPUs, die dieser Host hat. Jedes Replikat bekommt eigene GPUs (CUDA_VISIBLE_DEVICES).</translation>
    </message>
    <message>
        <source>Where the job runs, then a scale tier, or CUSTOM machine types and counts per role. Replicas run as processes on this host, or on the nodes of a Slurm cluster.</source>
        <translation>Wo der Job läuft, dann eine Skalierungsstufe oder CUSTOM-Maschinentypen und Anzahlen pro Rolle. Replikate laufen als Prozesse auf diesem Host oder auf den Knoten eines Slurm-Clusters.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Runs on&lt;/b&gt; (&lt;tt&gt;trainingInput.region&lt;/tt&gt;, gcloud&apos;s &lt;tt&gt;--region&lt;/tt&gt;): this host, or a Slurm cluster of the executor&apos;s clusters.yaml. On a cluster each replica gets a node of its own, with its machine type&apos;s vCPUs and memory and its GPUs; its logs, metrics and checkpoints show here as for a job on this host.</source>
        <translation>&lt;b&gt;Läuft auf&lt;/b&gt; (&lt;tt&gt;trainingInput.region&lt;/tt&gt;, &lt;tt&gt;--region&lt;/tt&gt; von gcloud): diesem Host oder einem Slurm-Cluster aus der clusters.yaml des Executors. Auf einem Cluster erhält jedes Replikat einen eigenen Knoten mit den vCPUs und dem Speicher seines Maschinentyps und seinen GPUs; seine Logs, Metriken und Checkpoints erscheinen hier wie bei einem Job auf diesem Host.</translation>
    </message>
    <message>
        <source>This host</source>
        <translation>Dieser Host</translation>
    </message>
    <message>
        <source>&lt;b&gt;Runs &amp;on&lt;/b&gt;</source>
        <translation>&lt;b&gt;Läuft &amp;auf&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 — Slurm cluster, %2</source>
        <translation>%1 — Slurm-Cluster, %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 — Slurm cluster, partition %2: %3 of %n node(s) idle</source>
        <translation>
            <numerusform>%1 — Slurm-Cluster, Partition %2: %3 von %n Knoten im Leerlauf</numerusform>
            <numerusform>%1 — Slurm-Cluster, Partition %2: %3 von %n Knoten im Leerlauf</numerusform>
        </translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(Standard)</translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s) free</source>
        <translation>
            <numerusform>, %n GPU frei</numerusform>
            <numerusform>, %n GPUs frei</numerusform>
        </translation>
    </message>
    <message>
        <source>No GPUs on this cluster&apos;s nodes</source>
        <translation>Keine GPUs auf den Knoten dieses Clusters</translation>
    </message>
    <message>
        <source>%1 (the cluster&apos;s GPUs: up to %2 per node)</source>
        <translation>%1 (GPUs des Clusters: bis zu %2 pro Knoten)</translation>
    </message>
    <message>
        <source>%1 (not on this cluster)</source>
        <translation>%1 (nicht auf diesem Cluster)</translation>
    </message>
    <message>
        <source>%1 (more than a node has)</source>
        <translation>%1 (mehr, als ein Knoten hat)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cannot run on %1:&lt;/b&gt;</source>
        <translation>&lt;b&gt;Kann nicht auf %1 laufen:&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Needs %n node(s), one per replica</source>
        <translation>
            <numerusform>Benötigt %n Knoten, einen pro Replikat</numerusform>
            <numerusform>Benötigt %n Knoten, einen pro Replikat</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Fits %1 now.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Passt jetzt auf %1.&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 of its %2 usable nodes are idle; Slurm can start it at once.</source>
        <translation>%1 von seinen %2 nutzbaren Knoten sind im Leerlauf; Slurm kann den Job sofort starten.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Will queue on %1.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Wird auf %1 in die Warteschlange gestellt.&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Only %1 of its %2 usable nodes are idle now (or not those with the GPUs asked for): Slurm starts it when enough are free.</source>
        <translation>Nur %1 von seinen %2 nutzbaren Knoten sind jetzt im Leerlauf (oder nicht die mit den angeforderten GPUs): Slurm startet den Job, sobald genug frei sind.</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardJobPage</name>
    <message>
        <source>&amp;Suggest</source>
        <translation>&amp;Vorschlagen</translation>
    </message>
    <message>
        <source>&amp;Add label</source>
        <translation>Label &amp;hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Remove label</source>
        <translation>Label &amp;entfernen</translation>
    </message>
    <message>
        <source>&amp;Import config…</source>
        <translation>Konfiguration i&amp;mportieren…</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Job</translation>
    </message>
    <message>
        <source>Name the job and label it, or start from a gcloud --config file.</source>
        <translation>Benennen Sie den Job und versehen Sie ihn mit Labels, oder beginnen Sie mit einer Datei für gcloud --config.</translation>
    </message>
    <message>
        <source>e.g. fmnist_20261122_061500</source>
        <translation>z. B. fmnist_20261122_061500</translation>
    </message>
    <message>
        <source>Letters, digits and underscores; starts with a letter; at most 128 characters.</source>
        <translation>Buchstaben, Ziffern und Unterstriche; beginnt mit einem Buchstaben; höchstens 128 Zeichen.</translation>
    </message>
    <message>
        <source>Build &lt;base&gt;_&lt;YYYYMMDD_HHMMSS&gt; from the current text or the module name</source>
        <translation>&lt;base&gt;_&lt;YYYYMMDD_HHMMSS&gt; aus dem aktuellen Text oder dem Modulnamen bilden</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Fill every page from a YAML or JSON job config (gcloud --config)</source>
        <translation>Alle Seiten aus einer Jobkonfiguration in YAML oder JSON füllen (gcloud --config)</translation>
    </message>
    <message>
        <source>Job &amp;ID:</source>
        <translation>Job-&amp;ID:</translation>
    </message>
    <message>
        <source>&amp;Labels:</source>
        <translation>&amp;Labels:</translation>
    </message>
    <message>
        <source>Import job config</source>
        <translation>Jobkonfiguration importieren</translation>
    </message>
    <message>
        <source>Job configs (*.yaml *.yml *.json);;All files (*)</source>
        <translation>Jobkonfigurationen (*.yaml *.yml *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Could not import %1: %2</source>
        <translation>%1 konnte nicht importiert werden: %2</translation>
    </message>
    <message>
        <source>Checking whether the ID is free…</source>
        <translation>Es wird geprüft, ob die ID frei ist…</translation>
    </message>
    <message>
        <source>A job with the ID &quot;%1&quot; already exists on this executor.</source>
        <translation>Auf diesem Executor existiert bereits ein Job mit der ID „%1“.</translation>
    </message>
    <message>
        <source>✓ No job has this ID yet.</source>
        <translation>✓ Noch kein Job hat diese ID.</translation>
    </message>
    <message>
        <source>Could not check whether the ID is free: %1</source>
        <translation>Es konnte nicht geprüft werden, ob die ID frei ist: %1</translation>
    </message>
    <message>
        <source>Row %1: a label needs a key.</source>
        <translation>Zeile %1: Ein Label benötigt einen Schlüssel.</translation>
    </message>
    <message>
        <source>The key &quot;%1&quot; appears more than once.</source>
        <translation>Der Schlüssel „%1“ kommt mehrfach vor.</translation>
    </message>
    <message>
        <source>&lt;b&gt;jobId&lt;/b&gt; (the service&apos;s rule): letters, numbers and underscores only, starting with a letter, at most 128 characters, and unique among the project&apos;s jobs.</source>
        <translation>&lt;b&gt;jobId&lt;/b&gt; (Regel des Dienstes): nur Buchstaben, Ziffern und Unterstriche, beginnend mit einem Buchstaben, höchstens 128 Zeichen und eindeutig unter den Jobs des Projekts.</translation>
    </message>
    <message>
        <source>&lt;b&gt;labels&lt;/b&gt; (the service&apos;s rule): at most 64 labels; keys and values at most 63 characters of lowercase letters, numbers, underscores and dashes; keys start with a letter. Filter the job list by them: labels.owner=alice.</source>
        <translation>&lt;b&gt;labels&lt;/b&gt; (Regel des Dienstes): höchstens 64 Labels; Schlüssel und Werte mit höchstens 63 Zeichen aus Kleinbuchstaben, Ziffern, Unterstrichen und Bindestrichen; Schlüssel beginnen mit einem Buchstaben. Die Jobliste lässt sich danach filtern: labels.owner=alice.</translation>
    </message>
    <message>
        <source>Your training a&amp;pplication (a Python package or a container image)</source>
        <translation>Ihre Trainings&amp;anwendung (ein Python-Paket oder ein Container-Image)</translation>
    </message>
    <message>
        <source>A built-in al&amp;gorithm on a CSV table, no code</source>
        <translation>Ein integrierter Al&amp;gorithmus auf einer CSV-Tabelle, ohne Code</translation>
    </message>
    <message>
        <source>&lt;b&gt;Built-in algorithm&lt;/b&gt;: XGBoost, a linear learner or wide and deep trained on a CSV table with the service&apos;s arguments, no training code of yours.</source>
        <translation>&lt;b&gt;Integrierter Algorithmus&lt;/b&gt;: XGBoost, ein Linear Learner oder Wide and Deep, auf einer CSV-Tabelle mit den Argumenten des Dienstes trainiert, ohne eigenen Trainingscode.</translation>
    </message>
    <message>
        <source>Batch p&amp;rediction: a model predicts the instances of files</source>
        <translation>Batch-Vo&amp;rhersage: Ein Modell sagt die Instanzen von Dateien vorher</translation>
    </message>
    <message>
        <source>&lt;b&gt;Batch prediction&lt;/b&gt; (&lt;tt&gt;predictionInput&lt;/tt&gt;): a job whose workers predict every instance of your files with a deployed model or a model folder.</source>
        <translation>&lt;b&gt;Batch-Vorhersage&lt;/b&gt; (&lt;tt&gt;predictionInput&lt;/tt&gt;): ein Job, dessen Worker jede Instanz Ihrer Dateien mit einem bereitgestellten Modell oder einem Modellordner vorhersagen.</translation>
    </message>
    <message>
        <source>Job type:</source>
        <translation>Jobtyp:</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardOutputPage</name>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>&amp;Job dir:</source>
        <translation>&amp;Jobverzeichnis:</translation>
    </message>
    <message>
        <source>Job dir</source>
        <translation>Jobverzeichnis</translation>
    </message>
    <message>
        <source>%1 is a URL; a job dir here is a local folder.</source>
        <translation>%1 ist eine URL; ein Jobverzeichnis ist hier ein lokaler Ordner.</translation>
    </message>
    <message>
        <source>%1 is a file, not a folder.</source>
        <translation>%1 ist eine Datei, kein Ordner.</translation>
    </message>
    <message>
        <source>%1 is not writable.</source>
        <translation>%1 ist nicht beschreibbar.</translation>
    </message>
    <message>
        <source>%1 cannot be created: %2 is not a folder.</source>
        <translation>%1 kann nicht erstellt werden: %2 ist kein Ordner.</translation>
    </message>
    <message>
        <source>%1 cannot be created: %2 is not writable.</source>
        <translation>%1 kann nicht erstellt werden: %2 ist nicht beschreibbar.</translation>
    </message>
    <message>
        <source>Br&amp;owse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>Use a ne&amp;w folder</source>
        <translation>&amp;Neuen Ordner verwenden</translation>
    </message>
    <message>
        <source>The job dir receives checkpoints and summaries; the trainer gets it as --job-dir. Most trainers, the sample among them, need one.</source>
        <translation>Das Jobverzeichnis nimmt Checkpoints und Summaries auf; der Trainer erhält es als --job-dir. Die meisten Trainer, darunter das Beispiel, benötigen eines.</translation>
    </message>
    <message>
        <source>A folder for the job&apos;s output</source>
        <translation>Ein Ordner für die Ausgabe des Jobs</translation>
    </message>
    <message>
        <source>The service&apos;s jobDir: a full path the trainer receives as --job-dir and writes checkpoints, event files and exported models into. A folder that already holds checkpoints makes most trainers resume from them.</source>
        <translation>Das jobDir des Dienstes: ein vollständiger Pfad, den der Trainer als --job-dir erhält und in den er Checkpoints, Eventdateien und exportierte Modelle schreibt. Enthält ein Ordner bereits Checkpoints, setzen die meisten Trainer von dort aus fort.</translation>
    </message>
    <message>
        <source>A new, empty folder named after this job, under your data folder</source>
        <translation>Ein neuer, leerer Ordner mit dem Namen dieses Jobs in Ihrem Datenordner</translation>
    </message>
    <message>
        <source>job %1 (%2)</source>
        <translation>Job %1 (%2)</translation>
    </message>
    <message>
        <source>This folder already holds %1 (%2); the trainer will resume from them instead of starting over.</source>
        <translation>Dieser Ordner enthält bereits %1 (%2); der Trainer setzt damit fort, statt von vorn zu beginnen.</translation>
    </message>
    <message>
        <source>This folder already holds %1 (%2) written by %3; the trainer will resume from them instead of starting over.</source>
        <translation>Dieser Ordner enthält bereits %1 (%2), geschrieben von %3; der Trainer setzt damit fort, statt von vorn zu beginnen.</translation>
    </message>
    <message numerus="yes">
        <source>at least %n checkpoint(s)</source>
        <translation>
            <numerusform>mindestens %n Checkpoint</numerusform>
            <numerusform>mindestens %n Checkpoints</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n checkpoint(s)</source>
        <translation>
            <numerusform>%n Checkpoint</numerusform>
            <numerusform>%n Checkpoints</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardReviewPage</name>
    <message>
        <source>&amp;Copy command</source>
        <translation>Befehl &amp;kopieren</translation>
    </message>
    <message>
        <source>&amp;Export config…</source>
        <translation>Konfiguration e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Überprüfung</translation>
    </message>
    <message>
        <source>The job as a gcloud --config file and as a trainyardctl command. Finish submits it.</source>
        <translation>Der Job als Datei für gcloud --config und als trainyardctl-Befehl. Zum Abschluss wird er gesendet.</translation>
    </message>
    <message>
        <source>Config (&amp;YAML):</source>
        <translation>Konfiguration (&amp;YAML):</translation>
    </message>
    <message>
        <source>Co&amp;mmand line:</source>
        <translation>&amp;Befehlszeile:</translation>
    </message>
    <message>
        <source>Export job config</source>
        <translation>Jobkonfiguration exportieren</translation>
    </message>
    <message>
        <source>YAML (*.yaml *.yml)</source>
        <translation>YAML (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>The command reads %1, which Export config… wrote.</source>
        <translation>Der Befehl liest %1, das „Konfiguration exportieren…“ geschrieben hat.</translation>
    </message>
    <message>
        <source>The command reads %1 for what no flag can say (the tuning spec, replica settings): Export config… writes it.</source>
        <translation>Der Befehl liest %1 für das, was keine Option ausdrücken kann (die Optimierungsangaben, Replikat-Einstellungen): „Konfiguration exportieren…“ schreibt die Datei.</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardTuningPage</name>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>Linear</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Logarithmisch</translation>
    </message>
    <message>
        <source>Reverse log</source>
        <translation>Umgekehrt logarithmisch</translation>
    </message>
    <message>
        <source>&amp;Tune hyperparameters</source>
        <translation>Hyperparameter op&amp;timieren</translation>
    </message>
    <message>
        <source>Stop poor trials &amp;early</source>
        <translation>Schlechte Versuche &amp;früh beenden</translation>
    </message>
    <message>
        <source>&amp;Add parameter</source>
        <translation>Parameter &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Hyperparameter tuning</source>
        <translation>Hyperparameter-Optimierung</translation>
    </message>
    <message>
        <source>Optional: run the trainer many times (trials), each with other values for the flags below (--NAME=VALUE), and keep the values whose reported metric is best.</source>
        <translation>Optional: den Trainer mehrmals ausführen (Versuche), jedes Mal mit anderen Werten für die Optionen unten (--NAME=WERT), und die Werte behalten, deren gemeldete Metrik am besten ist.</translation>
    </message>
    <message>
        <source>Tune hyperparameters</source>
        <translation>Hyperparameter optimieren</translation>
    </message>
    <message>
        <source>&lt;b&gt;hyperparameters&lt;/b&gt;: when on, the job is a tuning job. Each trial runs the whole cluster with the parameters below passed as --NAME=VALUE flags, and the trainer reports the metric with cloudml-hypertune.</source>
        <translation>&lt;b&gt;hyperparameters&lt;/b&gt;: wenn eingeschaltet, ist der Job ein Optimierungsjob. Jeder Versuch führt den ganzen Cluster mit den Parametern unten als Optionen --NAME=WERT aus, und der Trainer meldet die Metrik mit cloudml-hypertune.</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Maximize the metric</source>
        <translation>Metrik maximieren</translation>
    </message>
    <message>
        <source>Minimize the metric</source>
        <translation>Metrik minimieren</translation>
    </message>
    <message>
        <source>&lt;b&gt;goal&lt;/b&gt; (required): whether a larger (MAXIMIZE) or a smaller (MINIMIZE) value of the metric is better.</source>
        <translation>&lt;b&gt;goal&lt;/b&gt; (erforderlich): ob ein größerer (MAXIMIZE) oder ein kleinerer (MINIMIZE) Wert der Metrik besser ist.</translation>
    </message>
    <message>
        <source>Metric tag</source>
        <translation>Metrik-Tag</translation>
    </message>
    <message>
        <source>&lt;b&gt;hyperparameterMetricTag&lt;/b&gt;: the tag the trainer reports its metric under (cloudml-hypertune&apos;s report_hyperparameter_tuning_metric). Empty means the service&apos;s default, training/hptuning/metric.</source>
        <translation>&lt;b&gt;hyperparameterMetricTag&lt;/b&gt;: das Tag, unter dem der Trainer seine Metrik meldet (report_hyperparameter_tuning_metric von cloudml-hypertune). Leer bedeutet die Vorgabe des Dienstes, training/hptuning/metric.</translation>
    </message>
    <message>
        <source>Search algorithm</source>
        <translation>Suchalgorithmus</translation>
    </message>
    <message>
        <source>Bayesian optimisation</source>
        <translation>Bayessche Optimierung</translation>
    </message>
    <message>
        <source>Grid search</source>
        <translation>Rastersuche</translation>
    </message>
    <message>
        <source>Random search</source>
        <translation>Zufallssuche</translation>
    </message>
    <message>
        <source>&lt;b&gt;algorithm&lt;/b&gt;: Bayesian optimisation (the service&apos;s default, ALGORITHM_UNSPECIFIED) learns from finished trials; GRID_SEARCH tries every combination and cannot take DOUBLE parameters; RANDOM_SEARCH draws at random.</source>
        <translation>&lt;b&gt;algorithm&lt;/b&gt;: die bayessche Optimierung (Vorgabe des Dienstes, ALGORITHM_UNSPECIFIED) lernt aus beendeten Versuchen; GRID_SEARCH probiert jede Kombination und nimmt keine DOUBLE-Parameter; RANDOM_SEARCH zieht zufällig.</translation>
    </message>
    <message>
        <source>Maximum trials</source>
        <translation>Höchstzahl der Versuche</translation>
    </message>
    <message>
        <source>&lt;b&gt;maxTrials&lt;/b&gt;: how many trials the study runs at most (the service&apos;s default is 1).</source>
        <translation>&lt;b&gt;maxTrials&lt;/b&gt;: wie viele Versuche die Studie höchstens ausführt (Vorgabe des Dienstes: 1).</translation>
    </message>
    <message>
        <source>Maximum parallel trials</source>
        <translation>Höchstzahl paralleler Versuche</translation>
    </message>
    <message>
        <source>&lt;b&gt;maxParallelTrials&lt;/b&gt;: how many trials run at the same time. Each trial needs the whole cluster of the Compute page.</source>
        <translation>&lt;b&gt;maxParallelTrials&lt;/b&gt;: wie viele Versuche gleichzeitig laufen. Jeder Versuch braucht den ganzen Cluster der Seite Rechenleistung.</translation>
    </message>
    <message>
        <source>Maximum failed trials</source>
        <translation>Höchstzahl fehlgeschlagener Versuche</translation>
    </message>
    <message>
        <source>Service decides</source>
        <extracomment>Shown in the &quot;Max failed trials&quot; spin box at 0, the API&apos;s &quot;the service decides when to fail&quot;.</extracomment>
        <translation>Dienst entscheidet</translation>
    </message>
    <message>
        <source>&lt;b&gt;maxFailedTrials&lt;/b&gt;: the study fails after this many failed trials; 0 lets the service decide.</source>
        <translation>&lt;b&gt;maxFailedTrials&lt;/b&gt;: die Studie schlägt nach so vielen fehlgeschlagenen Versuchen fehl; 0 überlässt es dem Dienst.</translation>
    </message>
    <message>
        <source>&lt;b&gt;enableTrialEarlyStopping&lt;/b&gt;: stop a trial whose reported metric is clearly worse than finished trials&apos; at the same step.</source>
        <translation>&lt;b&gt;enableTrialEarlyStopping&lt;/b&gt;: beendet einen Versuch, dessen gemeldete Metrik beim selben Schritt deutlich schlechter ist als die beendeter Versuche.</translation>
    </message>
    <message>
        <source>Resume a previous tuning job</source>
        <translation>Einen früheren Optimierungsjob fortsetzen</translation>
    </message>
    <message>
        <source>&lt;b&gt;resumePreviousJobId&lt;/b&gt;: continue the study of an earlier tuning job of this executor: its trials count as already tried.</source>
        <translation>&lt;b&gt;resumePreviousJobId&lt;/b&gt;: setzt die Studie eines früheren Optimierungsjobs dieses Executors fort: seine Versuche gelten als bereits ausprobiert.</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Min.</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Max.</translation>
    </message>
    <message>
        <source>Values (comma-separated)</source>
        <translation>Werte (durch Kommas getrennt)</translation>
    </message>
    <message>
        <source>Scale</source>
        <translation>Skala</translation>
    </message>
    <message>
        <source>&lt;b&gt;params&lt;/b&gt; (the service&apos;s rules): each name once, passed as --NAME=VALUE; DOUBLE and INTEGER need minValue &lt; maxValue (INTEGER bounds whole numbers); DISCRETE values strictly increasing, at most 1,000; CATEGORICAL values distinct; a log scale needs values above 0. Numbers use a dot for decimals.</source>
        <translation>&lt;b&gt;params&lt;/b&gt; (die Regeln des Dienstes): jeder Name einmal, übergeben als --NAME=WERT; DOUBLE und INTEGER brauchen minValue &lt; maxValue (INTEGER-Grenzen ganzzahlig); DISCRETE-Werte streng aufsteigend, höchstens 1000; CATEGORICAL-Werte verschieden; eine logarithmische Skala braucht Werte über 0. Zahlen mit Punkt als Dezimaltrennzeichen.</translation>
    </message>
    <message>
        <source>Trial 1 command line</source>
        <translation>Befehlszeile von Versuch 1</translation>
    </message>
    <message>
        <source>&amp;Goal:</source>
        <translation>Z&amp;iel:</translation>
    </message>
    <message>
        <source>A&amp;lgorithm:</source>
        <translation>A&amp;lgorithmus:</translation>
    </message>
    <message>
        <source>Res&amp;ume from:</source>
        <translation>Fortsetzen &amp;von:</translation>
    </message>
    <message>
        <source>Max t&amp;rials:</source>
        <translation>Max. Ve&amp;rsuche:</translation>
    </message>
    <message>
        <source>Max &amp;parallel trials:</source>
        <translation>Max. &amp;parallele Versuche:</translation>
    </message>
    <message>
        <source>Max &amp;failed trials:</source>
        <translation>Max. fehlgeschlagene V&amp;ersuche:</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number (use a dot for decimals, e.g. 0.001 or 1e-4).</source>
        <extracomment>%1 is what the user typed in a Min, Max or Values cell.</extracomment>
        <translation>„%1“ ist keine Zahl (Dezimalpunkt verwenden, z. B. 0.001 oder 1e-4).</translation>
    </message>
    <message>
        <source>%1 (unknown algorithm)</source>
        <translation>%1 (unbekannter Algorithmus)</translation>
    </message>
    <message>
        <source>%1 (not on this executor)</source>
        <translation>%1 (nicht auf diesem Executor)</translation>
    </message>
    <message>
        <source>(none: a new study)</source>
        <translation>(keiner: eine neue Studie)</translation>
    </message>
    <message>
        <source>%1 — %2, %3 trials done</source>
        <extracomment>%1 is a job ID, %2 its state (Succeeded …), %3 how many trials it completed.</extracomment>
        <translation>%1 — %2, %3 Versuche erledigt</translation>
    </message>
    <message>
        <source>Parameter %1 (%2): %3</source>
        <translation>Parameter %1 (%2): %3</translation>
    </message>
    <message>
        <source>more than %1</source>
        <translation>mehr als %1</translation>
    </message>
    <message>
        <source>Grid points: %1 (the product of each parameter&apos;s number of values).</source>
        <translation>Rasterpunkte: %1 (das Produkt der Anzahl der Werte jedes Parameters).</translation>
    </message>
    <message>
        <source>Grid search stops after %2 trials although maxTrials is %1.</source>
        <extracomment>%1 is maxTrials, %2 the number of grid points.</extracomment>
        <translation>Die Rastersuche endet nach %2 Versuchen, obwohl maxTrials %1 ist.</translation>
    </message>
    <message>
        <source>Grid points: — (the DOUBLE parameter &quot;%1&quot; takes infinitely many values; only INTEGER, DISCRETE and CATEGORICAL parameters have a grid).</source>
        <extracomment>%1 is a parameter name. &quot;—&quot; stands for &quot;no number&quot;.</extracomment>
        <translation>Rasterpunkte: — (der DOUBLE-Parameter „%1“ nimmt unendlich viele Werte an; nur INTEGER-, DISCRETE- und CATEGORICAL-Parameter haben ein Raster).</translation>
    </message>
    <message>
        <source>Grid points: — (complete the parameters to count them).</source>
        <translation>Rasterpunkte: — (Parameter vervollständigen, um sie zu zählen).</translation>
    </message>
    <message>
        <source>Trial 1 starts at the centre of the space (the midpoint of each range in its scale, the first category); later trials follow what the metric reports.</source>
        <translation>Versuch 1 beginnt in der Mitte des Raums (der Mittelpunkt jedes Bereichs in seiner Skala, die erste Kategorie); spätere Versuche richten sich nach der gemeldeten Metrik.</translation>
    </message>
    <message>
        <source>Grid search starts with every parameter&apos;s first value and steps through the combinations, the last parameter fastest.</source>
        <translation>Die Rastersuche beginnt mit dem ersten Wert jedes Parameters und durchläuft die Kombinationen, den letzten Parameter am schnellsten.</translation>
    </message>
    <message>
        <source>Random search draws every trial&apos;s values at random; trial 1 is shown at the centre of the space as an example.</source>
        <translation>Die Zufallssuche zieht die Werte jedes Versuchs zufällig; Versuch 1 wird als Beispiel in der Mitte des Raums gezeigt.</translation>
    </message>
    <message>
        <source>Remo&amp;ve parameter</source>
        <translation>Parameter entfer&amp;nen</translation>
    </message>
    <message>
        <source>&amp;Metric tag:</source>
        <translation>&amp;Metrik-Tag:</translation>
    </message>
    <message>
        <source>Parameter&amp;s (each becomes --NAME=VALUE):</source>
        <translation>Parameter (&amp;jeder wird zu --NAME=WERT):</translation>
    </message>
    <message>
        <source>Parameter %1: %2</source>
        <extracomment>%1 is the parameter&apos;s row number, %2 its name, %3 the rule it breaks.</extracomment>
        <translation>Parameter %1: %2</translation>
    </message>
    <message>
        <source>This study resumes %1: its trials count as already tried, trial IDs continue after its last one, and the first new trial&apos;s values follow from them, so the command above only shows the form of a trial&apos;s command line.</source>
        <extracomment>%1 is the job ID of the tuning job being resumed.</extracomment>
        <translation>Diese Studie setzt %1 fort: dessen Versuche gelten als bereits ausprobiert, die Versuchsnummern gehen nach seinem letzten weiter, und die Werte des ersten neuen Versuchs ergeben sich aus ihnen; der Befehl oben zeigt daher nur die Form der Befehlszeile eines Versuchs.</translation>
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
