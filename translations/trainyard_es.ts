<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
<context>
    <name>ClusterFit</name>
    <message>
        <source>The cluster is not reachable now.</source>
        <translation>El clúster no está accesible ahora.</translation>
    </message>
    <message>
        <source>The cluster is not reachable now: %1</source>
        <translation>El clúster no está accesible ahora: %1</translation>
    </message>
    <message numerus="yes">
        <source>It needs %n node(s), one per replica (Slurm gives each replica its own node)</source>
        <translation>
            <numerusform>Necesita %n nodo, uno por réplica (Slurm da a cada réplica su propio nodo)</numerusform>
            <numerusform>Necesita %n nodos, uno por réplica (Slurm da a cada réplica su propio nodo)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; the partition has %n usable node(s).</source>
        <translation>
            <numerusform>; la partición tiene %n nodo utilizable.</numerusform>
            <numerusform>; la partición tiene %n nodos utilizables.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Each %1 replica asks for %2 GPUs; the largest node has %n.</source>
        <translation>
            <numerusform>Cada réplica del rol %1 solicita %2 GPU; el nodo más grande tiene %n.</numerusform>
            <numerusform>Cada réplica del rol %1 solicita %2 GPU; el nodo más grande tiene %n.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2 vCPUs) gets the largest node&apos;s %n CPUs.</source>
        <translation>
            <numerusform>%1 (%2 vCPU) recibe %n CPU, la del nodo más grande.</numerusform>
            <numerusform>%1 (%2 vCPU) recibe %n CPU, las del nodo más grande.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2 GB) gets the largest node&apos;s %3 GB of memory.</source>
        <translation>%1 (%2 GB) recibe los %3 GB de memoria del nodo más grande.</translation>
    </message>
</context>
<context>
    <name>Trainyard</name>
    <message>
        <source>%1 is a file, not a folder</source>
        <translation>%1 es un archivo, no una carpeta</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>No se puede leer %1: %2</translation>
    </message>
    <message>
        <source>Cannot create %1: %2</source>
        <translation>No se puede crear %1: %2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>No se puede escribir %1: %2</translation>
    </message>
    <message>
        <source>No job dir to copy from or to.</source>
        <translation>No hay directorio del trabajo de origen ni de destino para la copia.</translation>
    </message>
    <message>
        <source>The checkpoint %1 lists no files.</source>
        <translation>El punto de control %1 no enumera ningún archivo.</translation>
    </message>
    <message>
        <source>Refusing to copy %1: not a path inside the job dir.</source>
        <translation>No se copia %1: no es una ruta dentro del directorio del trabajo.</translation>
    </message>
    <message>
        <source>Cannot copy the checkpoint to %1: it already exists.</source>
        <translation>No se puede copiar el punto de control a %1: ya existe.</translation>
    </message>
    <message>
        <source>Cannot create the folder %1: %2</source>
        <translation>No se puede crear la carpeta %1: %2</translation>
    </message>
    <message>
        <source>Cannot create a folder in %1: %2</source>
        <translation>No se puede crear una carpeta en %1: %2</translation>
    </message>
    <message>
        <source>Cannot rename %1 to %2: %3</source>
        <translation>No se puede renombrar %1 como %2: %3</translation>
    </message>
</context>
<context>
    <name>Trainyard::AlgorithmArgumentsForm</name>
    <message>
        <source>Required: classification (the target is classes) or regression (the target is a quantity).</source>
        <translation>Obligatorio: classification (el objetivo son clases) o regression (el objetivo es una cantidad).</translation>
    </message>
    <message>
        <source>Training steps, each one batch.</source>
        <translation>Pasos de entrenamiento, cada uno con un lote.</translation>
    </message>
    <message>
        <source>Rows per training step.</source>
        <translation>Filas por paso de entrenamiento.</translation>
    </message>
    <message>
        <source>The optimiser&apos;s step size.</source>
        <translation>El tamaño de paso del optimizador.</translation>
    </message>
    <message>
        <source>The optimiser: FTRL (the service&apos;s default), Adam or plain gradient descent.</source>
        <translation>El optimizador: FTRL (el valor predeterminado del servicio), Adam o el descenso de gradiente simple.</translation>
    </message>
    <message>
        <source>L1 regularisation (FTRL): drives weights to exactly zero.</source>
        <translation>Regularización L1 (FTRL): lleva los pesos exactamente a cero.</translation>
    </message>
    <message>
        <source>L2 regularisation (FTRL).</source>
        <translation>Regularización L2 (FTRL).</translation>
    </message>
    <message>
        <source>Seconds of training between evaluations on the validation split (and at the end).</source>
        <translation>Segundos de entrenamiento entre las evaluaciones en el conjunto de validación (y al final).</translation>
    </message>
    <message>
        <source>--%1 is required.</source>
        <translation>--%1 es obligatorio.</translation>
    </message>
    <message>
        <source>--%1: %2 is not one of %3.</source>
        <extracomment>%1 the argument, %2 the value, %3 the accepted values.</extracomment>
        <translation>--%1: %2 no es ninguno de los valores %3.</translation>
    </message>
    <message>
        <source>--%1: %2 is not a whole number.</source>
        <extracomment>%1 the argument, %2 the value.</extracomment>
        <translation>--%1: %2 no es un número entero.</translation>
    </message>
    <message>
        <source>--%1: %2 is not a number.</source>
        <translation>--%1: %2 no es un número.</translation>
    </message>
    <message>
        <source>--%1: %2 is outside %3.</source>
        <extracomment>%1 the argument, %2 the value, %3 the range, e.g. [0, 1].</extracomment>
        <translation>--%1: %2 está fuera de %3.</translation>
    </message>
    <message>
        <source>The learning task: binary:logistic for two classes, multi:softprob for several, reg:linear (squared error) for a quantity.</source>
        <translation>La tarea de aprendizaje: binary:logistic para dos clases, multi:softprob para varias, reg:linear (error cuadrático) para una cantidad.</translation>
    </message>
    <message>
        <source>Boosting rounds: the number of trees.</source>
        <translation>Rondas de boosting: el número de árboles.</translation>
    </message>
    <message>
        <source>The deepest a tree grows; deeper trees fit more and overfit sooner.</source>
        <translation>La profundidad máxima de un árbol; los árboles más profundos se ajustan más y sobreajustan antes.</translation>
    </message>
    <message>
        <source>The learning rate: how much each tree&apos;s prediction counts.</source>
        <translation>La tasa de aprendizaje: cuánto cuenta la predicción de cada árbol.</translation>
    </message>
    <message>
        <source>The share of rows each tree is grown on.</source>
        <translation>La proporción de filas con la que se construye cada árbol.</translation>
    </message>
    <message>
        <source>The share of columns each tree may split on.</source>
        <translation>La proporción de columnas que cada árbol puede usar en sus divisiones.</translation>
    </message>
    <message>
        <source>L2 regularisation of the leaf weights.</source>
        <translation>Regularización L2 de los pesos de las hojas.</translation>
    </message>
    <message>
        <source>L1 regularisation of the leaf weights.</source>
        <translation>Regularización L1 de los pesos de las hojas.</translation>
    </message>
    <message>
        <source>The smallest loss reduction a split must bring.</source>
        <translation>La reducción mínima de la pérdida que debe aportar una división.</translation>
    </message>
    <message>
        <source>The smallest sum of instance weights (Hessians) a leaf may hold.</source>
        <translation>La suma mínima de pesos de instancia (hessianos) que puede contener una hoja.</translation>
    </message>
    <message>
        <source>How splits are found: hist is fast on large tables; gpu_hist trains on the job&apos;s GPU.</source>
        <translation>Cómo se buscan las divisiones: hist es rápido con tablas grandes; gpu_hist entrena en la GPU del trabajo.</translation>
    </message>
    <message>
        <source>XGBoost&apos;s evaluation metrics, comma-separated (default: the objective&apos;s).</source>
        <translation>Las métricas de evaluación de XGBoost, separadas por comas (predeterminadas: las de la tarea de aprendizaje).</translation>
    </message>
    <message>
        <source>The deep part&apos;s hidden layer sizes, comma-separated.</source>
        <translation>Los tamaños de las capas ocultas de la parte profunda, separados por comas.</translation>
    </message>
    <message>
        <source>Use the categorical columns in the wide (linear) part as well.</source>
        <translation>Usar también las columnas categóricas en la parte ancha (lineal).</translation>
    </message>
    <message>
        <source>Embed the categorical columns in the deep part (dimension: the square root of the number of categories) instead of one-hot encoding them.</source>
        <translation>Incrustar las columnas categóricas en la parte profunda (dimensión: la raíz cuadrada del número de categorías) en lugar de codificarlas en one-hot.</translation>
    </message>
    <message>
        <source>The deep part&apos;s step size.</source>
        <translation>El tamaño de paso de la parte profunda.</translation>
    </message>
    <message>
        <source>The deep part&apos;s optimiser.</source>
        <translation>El optimizador de la parte profunda.</translation>
    </message>
    <message>
        <source>The share of the deep part&apos;s units dropped in training.</source>
        <translation>La proporción de unidades de la parte profunda que se descartan durante el entrenamiento.</translation>
    </message>
    <message>
        <source>%1 Default: %2.</source>
        <extracomment>The tooltip of an argument&apos;s field: what it does, then its default.</extracomment>
        <translation>%1 Valor predeterminado: %2.</translation>
    </message>
    <message>
        <source>Choose…</source>
        <extracomment>The first entry of an argument&apos;s list: the algorithm&apos;s own default applies.</extracomment>
        <translation>Elegir…</translation>
    </message>
    <message>
        <source>Default (%1)</source>
        <translation>Predeterminado (%1)</translation>
    </message>
    <message>
        <source>the algorithm&apos;s default</source>
        <translation>valor predeterminado del algoritmo</translation>
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
        <translation>Cuándo</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Quién</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Método</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Recurso</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Resultado</translation>
    </message>
    <message>
        <source>Caller IP</source>
        <translation>IP del llamador</translation>
    </message>
</context>
<context>
    <name>Trainyard::AuditView</name>
    <message>
        <source>&amp;Live</source>
        <translation>En &amp;vivo</translation>
    </message>
    <message>
        <source>Audit Log</source>
        <translation>Registro de auditoría</translation>
    </message>
    <message>
        <source>Principal (alice@example.org)</source>
        <translation>Principal (alice@example.org)</translation>
    </message>
    <message>
        <source>Method (CancelJob)</source>
        <translation>Método (CancelJob)</translation>
    </message>
    <message>
        <source>Job ID</source>
        <translation>ID del trabajo</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>A&amp;ctualizar</translation>
    </message>
    <message>
        <source>Cannot read the audit log: %1</source>
        <translation>No se puede leer el registro de auditoría: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n entries, newest first.</source>
        <translation>
            <numerusform>%n entrada, la más reciente primero.</numerusform>
            <numerusform>%n entradas, las más recientes primero.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Cerrar</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Hora</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Registro</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Gravedad</translation>
    </message>
    <message>
        <source>Principal</source>
        <translation>Principal</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Método</translation>
    </message>
    <message>
        <source>Service</source>
        <translation>Servicio</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Recurso</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Mensaje</translation>
    </message>
    <message>
        <source>Field %1</source>
        <translation>Campo %1</translation>
    </message>
    <message>
        <source>Permission</source>
        <translation>Permiso</translation>
    </message>
    <message>
        <source>%1 on %2: %3</source>
        <translation>%1 sobre %2: %3</translation>
    </message>
    <message>
        <source>granted</source>
        <translation>concedido</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>denegado</translation>
    </message>
    <message>
        <source>Caller IP</source>
        <translation>IP del llamador</translation>
    </message>
    <message>
        <source>User agent</source>
        <translation>Agente de usuario</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Qué ocurrió</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Solicitud</translation>
    </message>
    <message>
        <source>Insert ID</source>
        <translation>ID de inserción</translation>
    </message>
    <message>
        <source>Audit Entry %1</source>
        <translation>Entrada de auditoría %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::BatchPredictionPanel</name>
    <message>
        <source>%1 (its default version)</source>
        <translation>%1 (su versión predeterminada)</translation>
    </message>
    <message>
        <source>the model folder %1</source>
        <translation>la carpeta de modelo %1</translation>
    </message>
    <message>
        <source>&amp;Open Folder</source>
        <translation>&amp;Abrir carpeta</translation>
    </message>
    <message>
        <source>%p % of the instances</source>
        <translation>%p % de las instancias</translation>
    </message>
    <message>
        <source>Open the output folder in the file manager</source>
        <translation>Abrir la carpeta de salida en el gestor de archivos</translation>
    </message>
    <message>
        <source>Output file</source>
        <translation>Archivo de salida</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>Select an output file to see its first lines.</source>
        <translation>Seleccione un archivo de salida para ver sus primeras líneas.</translation>
    </message>
    <message>
        <source>Progress:</source>
        <translation>Progreso:</translation>
    </message>
    <message>
        <source>Reads:</source>
        <translation>Lee:</translation>
    </message>
    <message>
        <source>Writes to:</source>
        <translation>Escribe en:</translation>
    </message>
    <message numerus="yes">
        <source>%Ln prediction(s)</source>
        <translation>
            <numerusform>%Ln predicción</numerusform>
            <numerusform>%Ln predicciones</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln error(s)</source>
        <translation>
            <numerusform>%Ln error</numerusform>
            <numerusform>%Ln errores</numerusform>
        </translation>
    </message>
    <message>
        <source> of %1 instances</source>
        <translation> de %1 instancias</translation>
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
        <translation>; %1 de tiempo de los workers (%2 horas de nodo)</translation>
    </message>
    <message>
        <source>No instance predicted yet.</source>
        <translation>Aún no se ha predicho ninguna instancia.</translation>
    </message>
    <message>
        <source>%1 instances from %2, with %3; batches of %4, at most %5 workers</source>
        <translation>instancias %1 de %2, con %3; lotes de %4, como máximo %5 workers</translation>
    </message>
    <message>
        <source>No output file yet.</source>
        <translation>Aún no hay archivos de salida.</translation>
    </message>
    <message>
        <source>The output folder %1 is not on this machine (yet).</source>
        <translation>La carpeta de salida %1 no está (aún) en esta máquina.</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>No se puede leer %1: %2</translation>
    </message>
</context>
<context>
    <name>Trainyard::BuiltInAlgorithmForm</name>
    <message>
        <source>Pre&amp;process: split off validation and test rows, fill in missing values, encode categorical columns</source>
        <translation>&amp;Preprocesar: separar las filas de validación y de prueba, completar los valores ausentes, codificar las columnas categóricas</translation>
    </message>
    <message>
        <source>&lt;b&gt;Built-in algorithm&lt;/b&gt; (masterConfig.imageUri): one of the service&apos;s algorithm images. Trainyard runs its own implementation of it (XGBoost; the linear learner and wide and deep in PyTorch, as Debian ships no TensorFlow) with the service&apos;s arguments, so the same job runs on the service unchanged.</source>
        <translation>&lt;b&gt;Algoritmo integrado&lt;/b&gt; (masterConfig.imageUri): una de las imágenes de algoritmos del servicio. Trainyard ejecuta su propia implementación con los argumentos del servicio (XGBoost; el linear learner y el wide and deep en PyTorch, ya que Debian no incluye TensorFlow), así que el mismo trabajo se ejecuta sin cambios en el servicio.</translation>
    </message>
    <message>
        <source>CSV: no header row, the target in the first column</source>
        <translation>CSV: sin fila de encabezado, con el objetivo en la primera columna</translation>
    </message>
    <message>
        <source>&lt;b&gt;--training_data_path&lt;/b&gt; (required): a UTF-8 CSV file without a header row, the target in the first column, numeric and categorical columns; an empty cell is a missing value.</source>
        <translation>&lt;b&gt;--training_data_path&lt;/b&gt; (obligatorio): un archivo CSV en UTF-8 sin fila de encabezado, con el objetivo en la primera columna y columnas numéricas y categóricas; una celda vacía es un valor ausente.</translation>
    </message>
    <message>
        <source>Optional: else preprocessing splits off 20 % of the training rows</source>
        <translation>Opcional: si no, el preprocesamiento separa el 20 % de las filas de entrenamiento</translation>
    </message>
    <message>
        <source>&lt;b&gt;--preprocess&lt;/b&gt;: the service&apos;s automatic preprocessing. Rows with more than 10 % of their values missing are dropped, numeric gaps get the column&apos;s mean, categorical columns are one-hot encoded, an all-distinct integer column is dropped as a row key, and the validation and test rows are drawn at random (--validation_split, --test_split; 0.20 each).</source>
        <translation>&lt;b&gt;--preprocess&lt;/b&gt;: el preprocesamiento automático del servicio. Se descartan las filas a las que les falta más del 10 % de sus valores, los huecos numéricos reciben la media de la columna, las columnas categóricas se codifican en one-hot, una columna de enteros con todos los valores distintos se descarta como clave de fila, y las filas de validación y de prueba se eligen al azar (--validation_split, --test_split; 0.20 cada una).</translation>
    </message>
    <message>
        <source>A&amp;lgorithm:</source>
        <translation>A&amp;lgoritmo:</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>Archivos CSV (*.csv);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>&amp;Training data:</source>
        <translation>Datos de &amp;entrenamiento:</translation>
    </message>
    <message>
        <source>Training data</source>
        <translation>Datos de entrenamiento</translation>
    </message>
    <message>
        <source>&amp;Validation data:</source>
        <translation>Datos de &amp;validación:</translation>
    </message>
    <message>
        <source>Validation data</source>
        <translation>Datos de validación</translation>
    </message>
    <message>
        <source>T&amp;est data:</source>
        <translation>Datos de p&amp;rueba:</translation>
    </message>
    <message>
        <source>Test data</source>
        <translation>Datos de prueba</translation>
    </message>
    <message>
        <source>Gradient-boosted trees on a master and workers (XGBoost&apos;s collective, rows sharded). No preprocessing: give numeric tables, classes as 0…K−1.</source>
        <translation>Árboles con gradient boosting en un maestro y trabajadores (el collective de XGBoost, con las filas repartidas). Sin preprocesamiento: proporcione tablas numéricas, con las clases como 0…K−1.</translation>
    </message>
    <message>
        <source>Gradient-boosted trees (XGBoost) for classification or regression: strong on tables of numeric and categorical columns.</source>
        <translation>Árboles con gradient boosting (XGBoost) para clasificación o regresión: muy eficaces con tablas de columnas numéricas y categóricas.</translation>
    </message>
    <message>
        <source>A linear model (logistic or linear regression): fast, a baseline, readable weights.%1</source>
        <translation>Un modelo lineal (regresión logística o lineal): rápido, una referencia de base, pesos legibles.%1</translation>
    </message>
    <message>
        <source> Trains on the job&apos;s GPU.</source>
        <translation> Se entrena en la GPU del trabajo.</translation>
    </message>
    <message>
        <source>A linear part and a deep network over embeddings: for tables with many categorical columns.%1</source>
        <translation>Una parte lineal y una red profunda sobre embeddings: para tablas con muchas columnas categóricas.%1</translation>
    </message>
    <message>
        <source>The built-in algorithms package is not installed (trainyard/algorithms in the data folders), so the table cannot be previewed.</source>
        <translation>El paquete de algoritmos integrados no está instalado (trainyard/algorithms en las carpetas de datos), así que no se puede previsualizar la tabla.</translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation>%1 no es un archivo.</translation>
    </message>
    <message>
        <source>The preview failed: %1</source>
        <translation>La vista previa falló: %1</translation>
    </message>
    <message>
        <source>no output</source>
        <translation>sin salida</translation>
    </message>
    <message>
        <source>This table cannot be trained on: %1</source>
        <extracomment>%1 is the reason, naming the file, line and column where it can.</extracomment>
        <translation>No se puede entrenar con esta tabla: %1</translation>
    </message>
    <message numerus="yes">
        <source>target: %n class(es) (%1): classification</source>
        <extracomment>%1 lists the first classes, e.g. &quot;benign, malignant&quot;.</extracomment>
        <translation>
            <numerusform>objetivo: %n clase (%1): clasificación</numerusform>
            <numerusform>objetivo: %n clases (%1): clasificación</numerusform>
        </translation>
    </message>
    <message>
        <source>target: numbers from %1 to %2: regression</source>
        <extracomment>%1 and %2 are the smallest and largest target values in the file.</extracomment>
        <translation>objetivo: números de %1 a %2: regresión</translation>
    </message>
    <message>
        <source>Line 1 looks like a header row (text above numbers): remove it; the service&apos;s tables have none, and it would be trained on as data.</source>
        <translation>La línea 1 parece una fila de encabezado (texto sobre números): elimínela; las tablas del servicio no tienen ninguna, y se entrenaría con ella como si fueran datos.</translation>
    </message>
    <message numerus="yes">
        <source>Column %1: %n of %2 values missing</source>
        <extracomment>%1 is a 1-based column number; %n the missing cells; %2 the file&apos;s rows.</extracomment>
        <translation>
            <numerusform>Columna %1: falta %n de %2 valores</numerusform>
            <numerusform>Columna %1: faltan %n de %2 valores</numerusform>
        </translation>
    </message>
    <message>
        <source>Table previe&amp;w</source>
        <translation>Vista previa de la &amp;tabla</translation>
    </message>
    <message>
        <source>Algor&amp;ithm arguments</source>
        <translation>Arg&amp;umentos del algoritmo</translation>
    </message>
    <message>
        <source>Reading %1 (%2): every row, to count the classes and the missing values…</source>
        <extracomment>%1 is a file name, %2 its size (e.g. &quot;12.5 MiB&quot;).</extracomment>
        <translation>Leyendo %1 (%2): cada fila, para contar las clases y los valores que faltan…</translation>
    </message>
    <message>
        <source>Classification because the target holds text.</source>
        <translation>Clasificación porque el objetivo contiene texto.</translation>
    </message>
    <message>
        <source>Regression because the target has fractional values.</source>
        <translation>Regresión porque el objetivo tiene valores con decimales.</translation>
    </message>
    <message>
        <source>Regression because the target has %1 distinct integers (more than 20 reads as a quantity).</source>
        <extracomment>%1 is the distinct integer count; 20 is the rule&apos;s limit.</extracomment>
        <translation>Regresión porque el objetivo tiene %1 enteros distintos (más de 20 se leen como una cantidad).</translation>
    </message>
    <message>
        <source>Regression because the target&apos;s %1 distinct integers are more than 10 and more than 5 % of the rows (too few rows per value to be classes).</source>
        <translation>Regresión porque los %1 enteros distintos del objetivo son más de 10 y más del 5 % de las filas (demasiado pocas filas por valor para ser clases).</translation>
    </message>
    <message>
        <source>Classification because the target has %1 distinct integers (at most 20 read as classes).</source>
        <translation>Clasificación porque el objetivo tiene %1 enteros distintos (hasta 20 se leen como clases).</translation>
    </message>
    <message>
        <source>To train the other task, change the objective (XGBoost) or the model type under Algorithm arguments.</source>
        <translation>Para entrenar la otra tarea, cambie el objetivo (XGBoost) o el tipo de modelo en Argumentos del algoritmo.</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s), the first %1 shown; %2; features: %3 numeric, %4 categorical, %5 dropped (key or constant).</source>
        <extracomment>%1 says what the target is; then the counts of feature columns by type. %n counts the file&apos;s rows.</extracomment>
        <translation>
            <numerusform>%n fila, se muestran las primeras %1; %2; variables: %3 numéricas, %4 categóricas, %5 descartadas (clave o constante).</numerusform>
            <numerusform>%n filas, se muestran las primeras %1; %2; variables: %3 numéricas, %4 categóricas, %5 descartadas (clave o constante).</numerusform>
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
        <translation>XGBoost distribuido</translation>
    </message>
    <message>
        <source>Linear learner</source>
        <translation>Aprendiz lineal</translation>
    </message>
    <message>
        <source>Linear learner (GPU)</source>
        <translation>Aprendiz lineal (GPU)</translation>
    </message>
    <message>
        <source>Wide and deep</source>
        <translation>Amplio y profundo</translation>
    </message>
    <message>
        <source>Wide and deep (GPU)</source>
        <translation>Amplio y profundo (GPU)</translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointCompareFilterModel</name>
    <message>
        <source>All tensors</source>
        <translation>Todos los tensores</translation>
    </message>
    <message>
        <source>All differences</source>
        <translation>Todas las diferencias</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Añadidos</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>Eliminados</translation>
    </message>
    <message>
        <source>Shape or type changed</source>
        <translation>Forma o tipo cambiados</translation>
    </message>
    <message>
        <source>Values changed</source>
        <translation>Valores cambiados</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>Sin cambios</translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointCompareModel</name>
    <message>
        <source>Added</source>
        <translation>Añadido</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>Eliminado</translation>
    </message>
    <message>
        <source>Shape changed</source>
        <translation>Forma cambiada</translation>
    </message>
    <message>
        <source>Type changed</source>
        <translation>Tipo cambiado</translation>
    </message>
    <message>
        <source>Values changed</source>
        <translation>Valores cambiados</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>Sin cambios</translation>
    </message>
    <message>
        <source>Stored in A as %1</source>
        <translation>Guardado en A como %1</translation>
    </message>
    <message>
        <source>Stored in B as %1</source>
        <translation>Guardado en B como %1</translation>
    </message>
    <message>
        <source>No statistics: %1</source>
        <translation>Sin estadísticas: %1</translation>
    </message>
    <message>
        <source>A: %1
B: %2</source>
        <translation>A: %1
B: %2</translation>
    </message>
    <message>
        <source>no finite values</source>
        <translation>ningún valor finito</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>Statistic of B minus that of A, over the finite values</source>
        <translation>Estadística de B menos la de A, sobre los valores finitos</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Cambio</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Forma</translation>
    </message>
    <message>
        <source>Δ mean</source>
        <translation>Δ media</translation>
    </message>
    <message>
        <source>Δ std</source>
        <translation>Δ desv. típ.</translation>
    </message>
    <message>
        <source>Δ min</source>
        <translation>Δ mín.</translation>
    </message>
    <message>
        <source>Δ max</source>
        <translation>Δ máx.</translation>
    </message>
    <message>
        <source>a bookkeeping entry has no values</source>
        <translation>una entrada de gestión interna no tiene valores</translation>
    </message>
    <message>
        <source>Not compared</source>
        <translation>Sin comparar</translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointListModel</name>
    <message>
        <source>TensorFlow bundle</source>
        <translation>Bundle de TensorFlow</translation>
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
El punto de control más reciente (indicado por el archivo de estado «checkpoint»)</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1 (actual)</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Punto de control</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Época</translation>
    </message>
    <message>
        <source>Written</source>
        <translation>Escrito</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Formato</translation>
    </message>
    <message>
        <source>Keras</source>
        <translation>Keras</translation>
    </message>
    <message>
        <source>%1
The job&apos;s exported model (its model/ folder, what Deploy Model… deploys), not a training checkpoint</source>
        <translation>%1
El modelo exportado del trabajo (su carpeta model/, lo que despliega «Desplegar modelo…»), no un punto de control del entrenamiento</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <extracomment>A row of the Checkpoints tab: %1 is the exported model&apos;s file (model/model.pt).</extracomment>
        <translation>Modelo: %1</translation>
    </message>
    <message>
        <source>%1, exported model</source>
        <extracomment>%1 is the model&apos;s format (PyTorch, SavedModel …).</extracomment>
        <translation>%1, modelo exportado</translation>
    </message>
</context>
<context>
    <name>Trainyard::CheckpointsPanel</name>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>Copiar ruta</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>Abrir carpeta</translation>
    </message>
    <message>
        <source>List the checkpoints in the job directory again</source>
        <translation>Volver a listar los puntos de control del directorio del trabajo</translation>
    </message>
    <message>
        <source>Copy the selected checkpoint&apos;s path (what TensorFlow, torch.load or safetensors open)</source>
        <translation>Copiar la ruta del punto de control seleccionado (la que abren TensorFlow, torch.load o safetensors)</translation>
    </message>
    <message>
        <source>Open the folder holding the selected checkpoint in the file manager</source>
        <translation>Abrir en el gestor de archivos la carpeta que contiene el punto de control seleccionado</translation>
    </message>
    <message>
        <source>Filter tensors by name or type</source>
        <translation>Filtrar tensores por nombre o tipo</translation>
    </message>
    <message>
        <source>Select a tensor to see its statistics and first values.</source>
        <translation>Seleccione un tensor para ver sus estadísticas y sus primeros valores.</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>Valores</translation>
    </message>
    <message>
        <source>Cannot list the checkpoints: %1</source>
        <translation>No se pueden listar los puntos de control: %1</translation>
    </message>
    <message>
        <source>This job has no job directory, so it writes no checkpoints here.</source>
        <translation>Este trabajo no tiene directorio del trabajo, así que no escribe puntos de control aquí.</translation>
    </message>
    <message>
        <source>No checkpoints in %1 yet.</source>
        <translation>Todavía no hay puntos de control en %1.</translation>
    </message>
    <message numerus="yes">
        <source>%n checkpoint(s) in %1</source>
        <translation>
            <numerusform>%n punto de control en %1</numerusform>
            <numerusform>%n puntos de control en %1</numerusform>
        </translation>
    </message>
    <message>
        <source> (the folder is too large to list completely)</source>
        <translation> (la carpeta es demasiado grande para listarla completa)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>Leyendo %1…</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>No se puede leer %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n tensor(s), %2</source>
        <translation>
            <numerusform>%1: %n tensor, %2</numerusform>
            <numerusform>%1: %n tensores, %2</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: no values: %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: sin valores: %2</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>Elementos</translation>
    </message>
    <message>
        <source>Minimum</source>
        <translation>Mínimo</translation>
    </message>
    <message>
        <source>Maximum</source>
        <translation>Máximo</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Media</translation>
    </message>
    <message>
        <source>Standard deviation</source>
        <translation>Desviación típica</translation>
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
            <numerusform>… y %n valor más</numerusform>
            <numerusform>… y %n valores más</numerusform>
        </translation>
    </message>
    <message>
        <source>Copied %1</source>
        <translation>Copiado %1</translation>
    </message>
    <message>
        <source>No application could open %1.</source>
        <translation>Ninguna aplicación pudo abrir %1.</translation>
    </message>
    <message>
        <source>Submit from this checkpoint…</source>
        <translation>Enviar desde este punto de control…</translation>
    </message>
    <message>
        <source>Statistics for all</source>
        <translation>Estadísticas de todos</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>Intercambiar</translation>
    </message>
    <message>
        <source>Copy the selected checkpoint into a new job dir and open the submit wizard with this job&apos;s settings, so the new job resumes from it</source>
        <translation>Copiar el punto de control seleccionado a un nuevo directorio del trabajo y abrir el asistente de envío con la configuración de este trabajo, para que el nuevo trabajo se reanude desde él</translation>
    </message>
    <message>
        <source>Compare the selected checkpoint (A) with another one (B)</source>
        <translation>Comparar el punto de control seleccionado (A) con otro (B)</translation>
    </message>
    <message>
        <source>(no comparison)</source>
        <translation>(sin comparación)</translation>
    </message>
    <message>
        <source>Compare with:</source>
        <translation>Comparar con:</translation>
    </message>
    <message>
        <source>Show the tensors with this kind of change; &quot;Values changed&quot; and &quot;Unchanged&quot; read the statistics of every tensor in both</source>
        <translation>Mostrar los tensores con este tipo de cambio; «Valores cambiados» y «Sin cambios» leen las estadísticas de todos los tensores de ambos</translation>
    </message>
    <message>
        <source>Filter tensors by name</source>
        <translation>Filtrar tensores por nombre</translation>
    </message>
    <message>
        <source>Read the statistics of every tensor in both checkpoints, not only of those in view</source>
        <translation>Leer las estadísticas de todos los tensores de ambos puntos de control, no solo de los visibles</translation>
    </message>
    <message>
        <source>Compare in the other direction (B to A)</source>
        <translation>Comparar en la otra dirección (de B a A)</translation>
    </message>
    <message>
        <source>not connected to an executor</source>
        <translation>sin conexión con un ejecutor</translation>
    </message>
    <message>
        <source>Reading %1 and %2…</source>
        <translation>Leyendo %1 y %2…</translation>
    </message>
    <message>
        <source>From A = %1 to B = %2: %3</source>
        <translation>De A = %1 a B = %2: %3</translation>
    </message>
    <message>
        <source>no tensors</source>
        <translation>ningún tensor</translation>
    </message>
    <message numerus="yes">
        <source> (reading statistics: %n left)</source>
        <translation>
            <numerusform> (leyendo estadísticas: falta %n)</numerusform>
            <numerusform> (leyendo estadísticas: faltan %n)</numerusform>
        </translation>
    </message>
    <message>
        <source>Copying %1 to %2…</source>
        <translation>Copiando %1 a %2…</translation>
    </message>
    <message>
        <source>Could not copy %1 for a new job: %2</source>
        <translation>No se pudo copiar %1 para un nuevo trabajo: %2</translation>
    </message>
    <message>
        <source>Copied %1 to %2</source>
        <translation>Copiado %1 a %2</translation>
    </message>
    <message>
        <source>and the exported model (listed last)</source>
        <translation>y el modelo exportado (al final)</translation>
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
        <translation>%1 (este host)</translation>
    </message>
    <message>
        <source>%1 (jobs go here)</source>
        <translation>%1 (aquí van los trabajos)</translation>
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
        <translation>Clúster de Slurm %1 (slurmrestd %2)</translation>
    </message>
    <message>
        <source>Jobs whose region names no cluster run on this host.</source>
        <translation>Los trabajos cuya región no indica ningún clúster se ejecutan en este host.</translation>
    </message>
    <message>
        <source>Region / node</source>
        <translation>Región / nodo</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>CPUs in use</source>
        <translation>CPU en uso</translation>
    </message>
    <message>
        <source>GPUs in use</source>
        <translation>GPU en uso</translation>
    </message>
    <message>
        <source>Partitions</source>
        <translation>Particiones</translation>
    </message>
    <message>
        <source>Trainyard jobs</source>
        <translation>Trabajos de Trainyard</translation>
    </message>
    <message>
        <source>Memory in use</source>
        <translation>Memoria en uso</translation>
    </message>
</context>
<context>
    <name>Trainyard::ClustersView</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>A&amp;ctualizar</translation>
    </message>
    <message>
        <source>Where jobs run: this host, and the Slurm clusters of the executor&apos;s clusters.yaml (a job&apos;s region picks one).</source>
        <translation>Dónde se ejecutan los trabajos: este host y los clústeres de Slurm del clusters.yaml del ejecutor (la región de un trabajo elige uno).</translation>
    </message>
    <message>
        <source>Could not read the regions: %1</source>
        <translation>No se pudieron leer las regiones: %1</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>Actualizado a las %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 of %n node(s) idle</source>
        <translation>
            <numerusform>%1: %2 de %n nodo inactivo</numerusform>
            <numerusform>%1: %2 de %n nodos inactivos</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1 / %2 GPUs</source>
        <translation>, %1 / %2 GPU</translation>
    </message>
    <message>
        <source>&lt;code&gt;$XDG_CONFIG_HOME/trainyard/clusters.yaml&lt;/code&gt; on the executor&apos;s host</source>
        <translation>&lt;code&gt;$XDG_CONFIG_HOME/trainyard/clusters.yaml&lt;/code&gt; en el equipo del ejecutor</translation>
    </message>
    <message>
        <source>&lt;b&gt;No Slurm cluster is set up: every job runs on this host.&lt;/b&gt;&lt;br&gt;To run jobs on a cluster, describe it in %1, for example:</source>
        <translation>&lt;b&gt;No hay ningún clúster de Slurm configurado: todos los trabajos se ejecutan en este host.&lt;/b&gt;&lt;br&gt;Para ejecutar trabajos en un clúster, descríbalo en %1, por ejemplo:</translation>
    </message>
    <message>
        <source>then restart the executor, and give the cluster&apos;s name as a job&apos;s region.</source>
        <translation>después reinicie el ejecutor e indique el nombre del clúster como región de un trabajo.</translation>
    </message>
    <message>
        <source>Every key and what the nodes need: README, Slurm clusters</source>
        <translation>Todas las claves y lo que necesitan los nodos: README, sección «Slurm clusters»</translation>
    </message>
</context>
<context>
    <name>Trainyard::ConfusionMatrixModel</name>
    <message>
        <source>True %1, predicted %2: %3 (%4 % of %1)</source>
        <extracomment>%1 true class, %2 predicted class, %3 count, %4 its percentage of the true class&apos;s rows.</extracomment>
        <translation>Clase real %1, predicha %2: %3 (%4 % de %1)</translation>
    </message>
    <message>
        <source>Predicted class %1</source>
        <translation>Clase predicha %1</translation>
    </message>
    <message>
        <source>Actual class %1</source>
        <translation>Clase real %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::ConnectDialog</name>
    <message>
        <source>Connect to Executor</source>
        <translation>Conectar con el ejecutor</translation>
    </message>
    <message>
        <source>https://host:port</source>
        <translation>https://host:puerto</translation>
    </message>
    <message>
        <source>tyk_… (from trainyardctl auth tokens create)</source>
        <translation>tyk_… (de trainyardctl auth tokens create)</translation>
    </message>
    <message>
        <source>Executor &amp;URL:</source>
        <translation>&amp;URL del ejecutor:</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>&amp;Token:</translation>
    </message>
    <message>
        <source>Trust the executor&apos;s certificate</source>
        <translation>Confiar en el certificado del ejecutor</translation>
    </message>
    <message>
        <source>Trust on &amp;first use (pin the certificate)</source>
        <translation>Confiar en el &amp;primer uso (fijar el certificado)</translation>
    </message>
    <message>
        <source>Verify with a &amp;CA file</source>
        <translation>Verificar con un archivo de &amp;CA</translation>
    </message>
    <message>
        <source>PEM file of the CA that signed the executor&apos;s certificate</source>
        <translation>Archivo PEM de la CA que firmó el certificado del ejecutor</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Examinar…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Trust on first use&lt;/b&gt;: the console shows the certificate the executor presents. Compare its SHA-256 fingerprint with the one the executor printed when it started (or that its admin sends you); once you trust it, it is pinned, and a different certificate later is refused, as ssh does with host keys.&lt;br&gt;&lt;b&gt;CA file&lt;/b&gt;: for executors whose certificate your team&apos;s CA signed; the certificate must be signed by that CA and name the host in the URL. Nothing is pinned.</source>
        <translation>&lt;b&gt;Confiar en el primer uso&lt;/b&gt;: la consola muestra el certificado que presenta el ejecutor. Compare su huella SHA-256 con la que el ejecutor imprimió al iniciarse (o la que le envíe su administrador); una vez que confíe en él, queda fijado, y más adelante se rechaza un certificado distinto, como hace ssh con las claves de host.&lt;br&gt;&lt;b&gt;Archivo de CA&lt;/b&gt;: para ejecutores cuyo certificado firmó la CA de su grupo de trabajo; el certificado debe estar firmado por esa CA y contener el nombre de host de la URL. No se fija nada.</translation>
    </message>
    <message>
        <source>Presented certificate</source>
        <translation>Certificado presentado</translation>
    </message>
    <message>
        <source>I compared the fingerprint: trust this certificate and &amp;pin it</source>
        <translation>He comparado la huella: confiar en este certificado y &amp;fijarlo</translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation>Sujeto:</translation>
    </message>
    <message>
        <source>Issuer:</source>
        <translation>Emisor:</translation>
    </message>
    <message>
        <source>Valid:</source>
        <translation>Validez:</translation>
    </message>
    <message>
        <source>SHA-256:</source>
        <translation>SHA-256:</translation>
    </message>
    <message>
        <source>&amp;Test Connection</source>
        <translation>&amp;Probar conexión</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Conectar</translation>
    </message>
    <message>
        <source>CA Certificate</source>
        <translation>Certificado de CA</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation>Certificados PEM (*.pem *.crt);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>The URL must be https://HOST:PORT (plain http only for this computer&apos;s own executor: the token would cross the network in clear text).</source>
        <translation>La URL debe tener la forma https://HOST:PUERTO (http sin cifrar solo para el ejecutor propio de este host: el token cruzaría la red en texto claro).</translation>
    </message>
    <message>
        <source>Fetching the certificate of %1…</source>
        <translation>Obteniendo el certificado de %1…</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>del %1 al %2</translation>
    </message>
    <message>
        <source>This computer&apos;s CAs trust this certificate; pinning it also refuses any other one later.</source>
        <translation>Las CA de este host confían en este certificado; si lo fija, además se rechazará más adelante cualquier otro.</translation>
    </message>
    <message>
        <source>No certificate is pinned for %1 yet. Compare the fingerprint with the one the executor printed at its start before you trust it.</source>
        <translation>Todavía no hay ningún certificado fijado para %1. Antes de confiar en él, compare la huella con la que el ejecutor imprimió al iniciarse.</translation>
    </message>
    <message>
        <source>Check the certificate, then trust it to test the token.</source>
        <translation>Compruebe el certificado y después confíe en él para probar el token.</translation>
    </message>
    <message>
        <source>This is the certificate you pinned for %1.</source>
        <translation>Este es el certificado que fijó para %1.</translation>
    </message>
    <message>
        <source>WARNING: this is not the certificate pinned for %1 (%2 line %3): pinned %4. Someone may be intercepting the connection; trust the new certificate only if you know the executor&apos;s certificate was replaced.</source>
        <translation>ADVERTENCIA: este no es el certificado fijado para %1 (%2, línea %3): el fijado es %4. Puede que alguien esté interceptando la conexión; confíe en el nuevo certificado solo si sabe que se sustituyó el certificado del ejecutor.</translation>
    </message>
    <message>
        <source>The certificate differs from the pinned one.</source>
        <translation>El certificado es distinto del fijado.</translation>
    </message>
    <message>
        <source>the certificate you accepted</source>
        <translation>el certificado que usted aceptó</translation>
    </message>
    <message>
        <source>Testing the token with %1…</source>
        <translation>Probando el token con %1…</translation>
    </message>
    <message>
        <source>The executor refused the token (401 UNAUTHENTICATED): %1</source>
        <translation>El ejecutor rechazó el token (401 UNAUTHENTICATED): %1</translation>
    </message>
    <message numerus="yes">
        <source>Connected: the executor accepted the token (%n CPU(s), %1 job(s) running).</source>
        <translation>
            <numerusform>Conectado: el ejecutor aceptó el token (%n CPU; trabajos en ejecución: %1).</numerusform>
            <numerusform>Conectado: el ejecutor aceptó el token (%n CPU; trabajos en ejecución: %1).</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot pin the certificate: %1</source>
        <translation>No se puede fijar el certificado: %1</translation>
    </message>
    <message>
        <source>The desktop keyring did not store the token (%1). Is a keyring service (GNOME Keyring, KWallet) running? You can connect anyway: the token is then kept in memory for this session only, never written to disk, and asked for again next time.</source>
        <translation>El llavero del escritorio no guardó el token (%1). ¿Se está ejecutando un servicio de llavero (GNOME Keyring, KWallet)? Puede conectarse de todos modos: el token se conserva entonces en memoria solo durante esta sesión, nunca se escribe en el disco y se le volverá a pedir la próxima vez.</translation>
    </message>
    <message>
        <source>Connect for This &amp;Session</source>
        <translation>Conectar para esta &amp;sesión</translation>
    </message>
</context>
<context>
    <name>Trainyard::CsvPreviewModel</name>
    <message>
        <source>Missing: preprocessing fills it in (numeric columns: the mean)</source>
        <translation>Valor ausente: el preprocesamiento lo completa (columnas numéricas: con la media)</translation>
    </message>
    <message>
        <source>target</source>
        <translation>objetivo</translation>
    </message>
    <message>
        <source>numeric</source>
        <translation>numérica</translation>
    </message>
    <message>
        <source>categorical</source>
        <translation>categórica</translation>
    </message>
    <message>
        <source>key (dropped)</source>
        <translation>clave (descartada)</translation>
    </message>
    <message>
        <source>constant (dropped)</source>
        <translation>constante (descartada)</translation>
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
            <numerusform>El objetivo (primera columna): números de %1 a %2, %n valor distinto</numerusform>
            <numerusform>El objetivo (primera columna): números de %1 a %2, %n valores distintos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The target (first column): %n class(es)</source>
        <translation>
            <numerusform>El objetivo (primera columna): %n clase</numerusform>
            <numerusform>El objetivo (primera columna): %n clases</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n distinct value(s)</source>
        <translation>
            <numerusform>%n valor distinto</numerusform>
            <numerusform>%n valores distintos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n missing</source>
        <translation>
            <numerusform>%n valor ausente</numerusform>
            <numerusform>%n valores ausentes</numerusform>
        </translation>
    </message>
    <message>
        <source>treatment: %1</source>
        <translation>tratamiento: %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::DeployDialog</name>
    <message>
        <source>Deploy a Model</source>
        <translation>Desplegar un modelo</translation>
    </message>
    <message>
        <source>A model of the project, or a new name: the model is created first.</source>
        <translation>Un modelo del proyecto o un nombre nuevo: primero se crea el modelo.</translation>
    </message>
    <message>
        <source>Prediction nodes: processes that each keep the model loaded; requests are spread over them.</source>
        <translation>Nodos de predicción: procesos que mantienen el modelo cargado; las solicitudes se reparten entre ellos.</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Examinar…</translation>
    </message>
    <message>
        <source>Model Folder</source>
        <translation>Carpeta del modelo</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modelo:</translation>
    </message>
    <message>
        <source>&amp;Version:</source>
        <translation>&amp;Versión:</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Carpeta:</translation>
    </message>
    <message>
        <source>F&amp;ramework:</source>
        <translation>F&amp;ramework:</translation>
    </message>
    <message>
        <source>&amp;Nodes:</source>
        <translation>&amp;Nodos:</translation>
    </message>
    <message>
        <source>The folder&apos;s files are copied into the executor&apos;s data folder, so a later change of the folder changes nothing deployed. The first version of a model becomes its default.</source>
        <translation>Los archivos de la carpeta se copian en la carpeta de datos del ejecutor, así que un cambio posterior de la carpeta no altera nada desplegado. La primera versión de un modelo pasa a ser la predeterminada.</translation>
    </message>
    <message>
        <source>Model name: %1</source>
        <translation>Nombre del modelo: %1</translation>
    </message>
    <message>
        <source>Version name: %1</source>
        <translation>Nombre de la versión: %1</translation>
    </message>
    <message>
        <source>Choose the folder that holds the model&apos;s files.</source>
        <translation>Elija la carpeta que contiene los archivos del modelo.</translation>
    </message>
    <message>
        <source>Deploying…</source>
        <translation>Desplegando…</translation>
    </message>
    <message>
        <source>Version name: model %1 already has a version %2; %3 is free.</source>
        <extracomment>%1 model, %2 the version typed, %3 the next free version name.</extracomment>
        <translation>Nombre de versión: el modelo %1 ya tiene una versión %2; %3 está libre.</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Ninguna</translation>
    </message>
    <message>
        <source>Sampled Shapley (any model)</source>
        <translation>Shapley muestreado (cualquier modelo)</translation>
    </message>
    <message>
        <source>Integrated gradients (PyTorch)</source>
        <translation>Gradientes integrados (PyTorch)</translation>
    </message>
    <message>
        <source>XRAI (PyTorch images)</source>
        <translation>XRAI (imágenes de PyTorch)</translation>
    </message>
    <message>
        <source>TreeSHAP (XGBoost)</source>
        <translation>TreeSHAP (XGBoost)</translation>
    </message>
    <message>
        <source>Exact Shapley (at most 12 features)</source>
        <translation>Shapley exacto (como máximo 12 variables)</translation>
    </message>
    <message>
        <source>E&amp;xplanations:</source>
        <translation>E&amp;xplicaciones:</translation>
    </message>
    <message>
        <source> paths</source>
        <translation> caminos</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> pasos</translation>
    </message>
    <message>
        <source>Predictions only: Explain stays off for this version.</source>
        <translation>Solo predicciones: «Explicar» queda desactivado para esta versión.</translation>
    </message>
    <message>
        <source>Each instance costs paths × (features + 1) rows through the model, one call per path; the error shrinks as 1/√paths. Needs explanation_metadata.json (each feature&apos;s baseline) in the folder, or a built-in algorithm&apos;s model.</source>
        <translation>Cada instancia cuesta caminos × (variables + 1) filas por el modelo, una llamada por camino; el error baja como 1/√caminos. Necesita explanation_metadata.json (la referencia de cada variable) en la carpeta, o el modelo de un algoritmo integrado.</translation>
    </message>
    <message>
        <source>Integrated gradients, then the image&apos;s segments at six scales ranked by attribution: a second or so per image. Needs a TorchScript model whose explanation_metadata.json says its input is an image.</source>
        <translation>Gradientes integrados y después los segmentos de la imagen a seis escalas ordenados por atribución: alrededor de un segundo por imagen. Necesita un modelo TorchScript cuyo explanation_metadata.json diga que su entrada es una imagen.</translation>
    </message>
    <message>
        <source>One batched forward and backward pass of steps + 1 rows per instance; exact for a linear model. Needs a TorchScript model and each input&apos;s baseline (explanation_metadata.json).</source>
        <translation>Una pasada hacia delante y hacia atrás en lote de pasos + 1 filas por instancia; exacta para un modelo lineal. Necesita un modelo TorchScript y la referencia de cada entrada (explanation_metadata.json).</translation>
    </message>
    <message>
        <source>Exact for the trees, one pass per instance, in the booster&apos;s margin (log-odds) space from its expected margin; needs no baseline.</source>
        <translation>Exacto para los árboles, una pasada por instancia, en el espacio de margen (log-odds) del booster desde su margen esperado; no necesita referencia.</translation>
    </message>
    <message>
        <source>2^features rows per instance (4,096 at 12 features): exact values, for small models only.</source>
        <translation>2^variables filas por instancia (4096 con 12 variables): valores exactos, solo para modelos pequeños.</translation>
    </message>
</context>
<context>
    <name>Trainyard::DeployedModelsModel</name>
    <message>
        <source>default</source>
        <translation>predeterminada</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nunca</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Framework</source>
        <translation>Framework</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Predeterminada</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nodos</translation>
    </message>
    <message>
        <source>Last use</source>
        <translation>Último uso</translation>
    </message>
    <message>
        <source>Deployment / description</source>
        <translation>Despliegue / descripción</translation>
    </message>
    <message>
        <source>Requests per second over the latest 10 s (the Charts tab shows the last hour)</source>
        <translation>Solicitudes por segundo en los últimos 10 s (la pestaña Gráficos muestra la última hora)</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/s</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Solicitudes</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n version(s))</source>
        <extracomment>A model&apos;s row: %1 its name, %n its versions.</extracomment>
        <translation>
            <numerusform>%1 (%n versión)</numerusform>
            <numerusform>%1 (%n versiones)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::ExecutorConnection</name>
    <message>
        <source>Starting the executor (%1)…</source>
        <translation>Iniciando el ejecutor (%1)…</translation>
    </message>
    <message>
        <source>Reconnected to executor</source>
        <translation>Reconectado al ejecutor</translation>
    </message>
    <message>
        <source>Executor not available: %1</source>
        <translation>El ejecutor no está disponible: %1</translation>
    </message>
    <message>
        <source>Lost the connection to the executor: %1</source>
        <translation>Se perdió la conexión con el ejecutor: %1</translation>
    </message>
    <message>
        <source>No token for %1 in the desktop keyring; using this computer&apos;s executor. File &gt; Connect to Executor… connects to it again.</source>
        <translation>No hay ningún token para %1 en el llavero del escritorio; se usa el ejecutor de este host. Archivo &gt; Conectar con el ejecutor… vuelve a conectarse a él.</translation>
    </message>
    <message>
        <source>The desktop keyring did not give the token for %1 (%2); using this computer&apos;s executor. File &gt; Connect to Executor… connects to it again.</source>
        <translation>El llavero del escritorio no devolvió el token para %1 (%2); se usa el ejecutor de este host. Archivo &gt; Conectar con el ejecutor… vuelve a conectarse a él.</translation>
    </message>
</context>
<context>
    <name>Trainyard::ExecutorStatusBar</name>
    <message>
        <source>Executor: –</source>
        <translation>Ejecutor: –</translation>
    </message>
    <message>
        <source>Executor: %1</source>
        <translation>Ejecutor: %1</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>Conectado</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Conectando…</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>Desconectado</translation>
    </message>
    <message>
        <source>Host: %1, %2, %3 · %4 running, %5 queued</source>
        <translation>Host: %1, %2, %3 · %4 en ejecución, %5 en cola</translation>
    </message>
    <message>
        <source>%1 / %2 vCPUs</source>
        <translation>%1 / %2 vCPU</translation>
    </message>
    <message>
        <source>%1 / %2 GB</source>
        <translation>%1 / %2 GB</translation>
    </message>
    <message>
        <source>%1 / %2 GPUs</source>
        <translation>%1 / %2 GPU</translation>
    </message>
    <message>
        <source>The executor&apos;s Slurm clusters: idle nodes and GPUs in use. Click for the Clusters view.</source>
        <translation>Los clústeres de Slurm del ejecutor: nodos inactivos y GPU en uso. Haga clic para abrir la vista Clústeres.</translation>
    </message>
    <message numerus="yes">
        <source>, %n prediction node(s)</source>
        <translation>
            <numerusform>, %n nodo de predicción</numerusform>
            <numerusform>, %n nodos de predicción</numerusform>
        </translation>
    </message>
    <message>
        <source>Running jobs and prediction nodes reserve more than this host has: they share the host&apos;s CPUs and memory, run slower than their machine types promise, and may be killed if memory runs out.</source>
        <translation>Los trabajos en ejecución y los nodos de predicción reservan más de lo que tiene este host: comparten las CPU y la memoria del host, se ejecutan más despacio de lo que prometen sus tipos de máquina y pueden ser finalizados si se agota la memoria.</translation>
    </message>
    <message>
        <source>What running jobs and prediction nodes reserve of this host (machine types&apos; vCPUs and memory, GPUs).</source>
        <translation>Lo que los trabajos en ejecución y los nodos de predicción reservan de este host (vCPU y memoria de los tipos de máquina, GPU).</translation>
    </message>
</context>
<context>
    <name>Trainyard::ExplanationView</name>
    <message numerus="yes">
        <source>Sampled Shapley, %n path(s)</source>
        <translation>
            <numerusform>Shapley muestreado, %n camino</numerusform>
            <numerusform>Shapley muestreado, %n caminos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Integrated gradients, %n step(s)</source>
        <translation>
            <numerusform>Gradientes integrados, %n paso</numerusform>
            <numerusform>Gradientes integrados, %n pasos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>XRAI, %n step(s)</source>
        <translation>
            <numerusform>XRAI, %n paso</numerusform>
            <numerusform>XRAI, %n pasos</numerusform>
        </translation>
    </message>
    <message>
        <source>Exact Shapley values</source>
        <translation>Valores de Shapley exactos</translation>
    </message>
    <message>
        <source>TreeSHAP (margin space)</source>
        <translation>TreeSHAP (espacio de margen)</translation>
    </message>
    <message>
        <source>%1 · score %2 from baseline %3 · approximation error %4</source>
        <translation>%1 · puntuación %2 desde la referencia %3 · error de aproximación %4</translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <source>%1 = (missing)</source>
        <translation>%1 = (falta)</translation>
    </message>
    <message numerus="yes">
        <source>%n other feature(s)</source>
        <translation>
            <numerusform>%n variable más</numerusform>
            <numerusform>%n variables más</numerusform>
        </translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>Referencia</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>Predicción</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>Instancia</translation>
    </message>
    <message>
        <source>XRAI&apos;s top regions</source>
        <translation>Las regiones principales de XRAI</translation>
    </message>
    <message>
        <source>Attribution (|value|) over it</source>
        <translation>Atribución (|valor|) encima</translation>
    </message>
</context>
<context>
    <name>Trainyard::ExplanationsPanel</name>
    <message>
        <source>Explain shows, for each instance, how much each feature moved the prediction away from the baseline (the version&apos;s explanationConfig says how).</source>
        <translation>«Explicar» muestra, para cada instancia, cuánto movió cada variable la predicción respecto a la referencia (la explanationConfig de la versión dice cómo).</translation>
    </message>
    <message>
        <source>Instance %1 · output %2</source>
        <translation>Instancia %1 · salida %2</translation>
    </message>
    <message>
        <source>The answer holds no explanation.</source>
        <translation>La respuesta no contiene ninguna explicación.</translation>
    </message>
</context>
<context>
    <name>Trainyard::FrameworkGuess</name>
    <message>
        <source>The folder does not exist.</source>
        <translation>La carpeta no existe.</translation>
    </message>
    <message>
        <source>model.bst and preprocessing.json: a built-in algorithm&apos;s XGBoost model. It takes raw rows of the training table and answers its labels.</source>
        <translation>model.bst y preprocessing.json: el modelo XGBoost de un algoritmo integrado. Recibe filas sin procesar de la tabla de entrenamiento y responde con sus etiquetas.</translation>
    </message>
    <message>
        <source>model.bst: an XGBoost booster.</source>
        <translation>model.bst: un booster de XGBoost.</translation>
    </message>
    <message>
        <source>model.pt and preprocessing.json: a built-in algorithm&apos;s PyTorch model. It takes raw rows of the training table and answers its labels.</source>
        <translation>model.pt y preprocessing.json: el modelo PyTorch de un algoritmo integrado. Recibe filas sin procesar de la tabla de entrenamiento y responde con sus etiquetas.</translation>
    </message>
    <message>
        <source>model.pt: a PyTorch model, served if it is TorchScript (torch.jit.script or torch.jit.trace).</source>
        <translation>model.pt: un modelo PyTorch, servible si es TorchScript (torch.jit.script o torch.jit.trace).</translation>
    </message>
    <message>
        <source>%1: a scikit-learn model (an XGBoost model saved through its scikit-learn API takes XGBOOST).</source>
        <translation>%1: un modelo de scikit-learn (un modelo XGBoost guardado con su API de scikit-learn requiere XGBOOST).</translation>
    </message>
    <message>
        <source>saved_model.pb: a TensorFlow SavedModel, which cannot be served here (this system has no TensorFlow runtime).</source>
        <translation>saved_model.pb: un SavedModel de TensorFlow, que aquí no se puede servir (este sistema no tiene entorno de ejecución de TensorFlow).</translation>
    </message>
    <message>
        <source>No model file: expected model.joblib or model.pkl (scikit-learn), model.bst (XGBoost) or model.pt (TorchScript).</source>
        <translation>Ningún archivo de modelo: se espera model.joblib o model.pkl (scikit-learn), model.bst (XGBoost) o model.pt (TorchScript).</translation>
    </message>
</context>
<context>
    <name>Trainyard::HostFit</name>
    <message>
        <source>%1 vCPUs on this host&apos;s %2</source>
        <translation>%1 vCPU (este host tiene %2)</translation>
    </message>
    <message>
        <source>%1 GB of memory on this host&apos;s %2 GB</source>
        <translation>%1 GB de memoria (este host tiene %2 GB)</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) are queued ahead of it (first in, first out).</source>
        <translation>
            <numerusform>Hay %n trabajo en cola por delante (el primero en entrar es el primero en salir).</numerusform>
            <numerusform>Hay %n trabajos en cola por delante (el primero en entrar es el primero en salir).</numerusform>
        </translation>
    </message>
    <message>
        <source>The host is idle; a job alone on the host always starts.</source>
        <translation>El host está inactivo; un trabajo que está solo en el host siempre se inicia.</translation>
    </message>
    <message>
        <source>Free now: %1 vCPUs, %2 GB, %3 GPUs.</source>
        <translation>Libres ahora: %1 vCPU, %2 GB, %3 GPU.</translation>
    </message>
    <message>
        <source>It asks for %1. It will start when no other job runs (a job alone on the host always starts), but its replicas will share what this host has: expect it to run slower than on the machine types chosen, and replicas may be killed if memory runs out. Choose smaller machine types or fewer replicas to avoid this.</source>
        <translation>Solicita %1. Se iniciará cuando no se ejecute ningún otro trabajo (un trabajo que está solo en el host siempre se inicia), pero sus réplicas compartirán lo que tiene este host: es de esperar que se ejecute más despacio que en los tipos de máquina elegidos, y las réplicas pueden ser finalizadas si se agota la memoria. Elija tipos de máquina más pequeños o menos réplicas para evitarlo.</translation>
    </message>
    <message>
        <source> and </source>
        <translation> y </translation>
    </message>
    <message>
        <source>This host holds %1 of its %2 parallel trials at once (each needs %3 vCPUs, %4 GB): the others wait for a trial to end.</source>
        <translation>Este host aloja a la vez %1 de sus %2 pruebas en paralelo (cada una necesita %3 vCPU, %4 GB): las demás esperan a que termine una prueba.</translation>
    </message>
    <message numerus="yes">
        <source>Needs %n replica(s)</source>
        <translation>
            <numerusform>Necesita %n réplica</numerusform>
            <numerusform>Necesita %n réplicas</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1 vCPUs, %2 GB</source>
        <translation>, %1 vCPU, %2 GB</translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s)</source>
        <translation>
            <numerusform>, %n GPU</numerusform>
            <numerusform>, %n GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>(%n trial(s) at once)</source>
        <translation>
            <numerusform>(%n prueba a la vez)</numerusform>
            <numerusform>(%n pruebas a la vez)</numerusform>
        </translation>
    </message>
    <message>
        <source>Can never run here.</source>
        <translation>Nunca podrá ejecutarse aquí.</translation>
    </message>
    <message>
        <source>Fits this host now.</source>
        <translation>Cabe en este host ahora.</translation>
    </message>
    <message>
        <source>Oversubscribes this host.</source>
        <translation>Excede la capacidad de este host.</translation>
    </message>
    <message>
        <source>Will queue.</source>
        <translation>Quedará en cola.</translation>
    </message>
    <message numerus="yes">
        <source>No job runs; %n prediction node(s) of deployed versions hold some of the host.</source>
        <translation>
            <numerusform>No se ejecuta ningún trabajo; %n nodo de predicción de una versión desplegada ocupa parte del host.</numerusform>
            <numerusform>No se ejecuta ningún trabajo; %n nodos de predicción de versiones desplegadas ocupan parte del host.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No other job runs, so it starts now (a job alone on the host always starts), beside %n prediction node(s) of deployed versions.</source>
        <translation>
            <numerusform>No se ejecuta ningún otro trabajo, así que se inicia ahora (un trabajo que está solo en el host siempre se inicia), junto a %n nodo de predicción de una versión desplegada.</numerusform>
            <numerusform>No se ejecuta ningún otro trabajo, así que se inicia ahora (un trabajo que está solo en el host siempre se inicia), junto a %n nodos de predicción de versiones desplegadas.</numerusform>
        </translation>
    </message>
    <message>
        <source>They hold %1 vCPUs and %2 GB of this host&apos;s %3 vCPUs and %4 GB: together they ask for more than it has, so the job&apos;s replicas and the nodes share its CPUs and memory. Delete or scale down a version to avoid this.</source>
        <translation>Ocupan %1 vCPU y %2 GB de los %3 vCPU y %4 GB de este host: juntos solicitan más de lo que tiene, así que las réplicas del trabajo y los nodos comparten sus CPU y su memoria. Elimine o reduzca una versión para evitarlo.</translation>
    </message>
    <message numerus="yes">
        <source>Prediction nodes of deployed versions hold part of that (%n node(s)).</source>
        <translation>
            <numerusform>Los nodos de predicción de versiones desplegadas ocupan parte de ello (%n nodo).</numerusform>
            <numerusform>Los nodos de predicción de versiones desplegadas ocupan parte de ello (%n nodos).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n running job(s) hold %1 of %2 vCPUs, %3 of %4 GB and %5 of %6 GPUs.</source>
        <translation>
            <numerusform>%n trabajo en ejecución ocupa %1 de %2 vCPU, %3 de %4 GB y %5 de %6 GPU.</numerusform>
            <numerusform>%n trabajos en ejecución ocupan %1 de %2 vCPU, %3 de %4 GB y %5 de %6 GPU.</numerusform>
        </translation>
    </message>
    <message>
        <source>Once it starts it asks for %1: its replicas will share what this host has. Choose smaller machine types or fewer replicas to avoid this.</source>
        <translation>Cuando empiece pedirá %1: sus réplicas compartirán lo que tiene este host. Elija tipos de máquina más pequeños o menos réplicas para evitarlo.</translation>
    </message>
</context>
<context>
    <name>Trainyard::ImportanceChart</name>
    <message>
        <source>Hyperparameter importance</source>
        <translation>Importancia de los hiperparámetros</translation>
    </message>
    <message>
        <source>Each hyperparameter&apos;s share of the objective&apos;s variance</source>
        <translation>La parte de la varianza del objetivo de cada hiperparámetro</translation>
    </message>
    <message>
        <source>Importance is measured once 2 trials have succeeded.</source>
        <translation>La importancia se mide cuando 2 pruebas han terminado con éxito.</translation>
    </message>
    <message>
        <source>importance</source>
        <translation>importancia</translation>
    </message>
    <message>
        <source>Share of the objective&apos;s variance</source>
        <translation>Parte de la varianza del objetivo</translation>
    </message>
    <message numerus="yes">
        <source>%1. Over %n succeeded trial(s).</source>
        <translation>
            <numerusform>%1. Sobre %n prueba con éxito.</numerusform>
            <numerusform>%1. Sobre %n pruebas con éxito.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::IntermediateValuesChart</name>
    <message>
        <source>Intermediate values</source>
        <translation>Valores intermedios</translation>
    </message>
    <message>
        <source>Each trial&apos;s reported objective by step</source>
        <translation>El objetivo informado de cada prueba por paso</translation>
    </message>
    <message>
        <source>No trial reported an intermediate value yet: a trial reports one each time it calls hypertune&apos;s report_hyperparameter_tuning_metric().</source>
        <translation>Ninguna prueba ha informado aún un valor intermedio: una prueba informa uno cada vez que llama a report_hyperparameter_tuning_metric() de hypertune.</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Objetivo</translation>
    </message>
    <message>
        <source>Stopped early</source>
        <translation>Detenida antes</translation>
    </message>
    <message>
        <source>trial %1</source>
        <translation>prueba %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::JobFilterProxyModel</name>
    <message>
        <source>the filter does not parse</source>
        <translation>el filtro no se puede analizar</translation>
    </message>
</context>
<context>
    <name>Trainyard::JobListModel</name>
    <message numerus="yes">
        <source> (+%n eval)</source>
        <translation>
            <numerusform> (+%n de evaluación)</numerusform>
            <numerusform> (+%n de evaluación)</numerusform>
        </translation>
    </message>
    <message>
        <source>1 master, %1 workers, %2 parameter servers, %3 evaluators</source>
        <translation>1 maestro, %1 trabajadores, %2 servidores de parámetros, %3 evaluadores</translation>
    </message>
    <message>
        <source>Position in queue: %1</source>
        <translation>Posición en la cola: %1</translation>
    </message>
    <message>
        <source>Job ID</source>
        <translation>ID del trabajo</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creado</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Duración</translation>
    </message>
    <message>
        <source>Scale tier</source>
        <translation>Nivel de escala</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Etiquetas</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>lote</translation>
    </message>
    <message>
        <source>%1 done</source>
        <translation>%1 hechas</translation>
    </message>
    <message>
        <source>%1 / %2 done</source>
        <translation>%1 / %2 hechas</translation>
    </message>
    <message>
        <source>Batch prediction</source>
        <translation>Predicción por lotes</translation>
    </message>
    <message>
        <source>Instances predicted: %1, errors: %2, of %3 in the input; results in %4</source>
        <translation>Instancias predichas: %1, errores: %2, de %3 en la entrada; resultados en %4</translation>
    </message>
    <message>
        <source>(not yet counted)</source>
        <translation>(aún sin contar)</translation>
    </message>
    <message>
        <source>Built-in algorithm, tuning</source>
        <translation>Algoritmo integrado, ajuste</translation>
    </message>
    <message>
        <source>Built-in algorithm</source>
        <translation>Algoritmo integrado</translation>
    </message>
    <message>
        <source>Hyperparameter tuning</source>
        <translation>Ajuste de hiperparámetros</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Entrenamiento</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Replicas / progress</source>
        <extracomment>A training job&apos;s replicas (master + workers + parameter servers); a batch prediction&apos;s instances done.</extracomment>
        <translation>Réplicas / progreso</translation>
    </message>
    <message>
        <source>Training: master + workers + parameter servers (+ evaluators). Batch prediction: the instances done.</source>
        <translation>Entrenamiento: maestro + trabajadores + servidores de parámetros (+ evaluadores). Predicción por lotes: las instancias hechas.</translation>
    </message>
</context>
<context>
    <name>Trainyard::JobValidation</name>
    <message>
        <source>A job ID is required.</source>
        <translation>Se necesita un ID de trabajo.</translation>
    </message>
    <message>
        <source>A job ID may be at most 128 characters long (this one has %1).</source>
        <translation>Un ID de trabajo puede tener como máximo 128 caracteres (este tiene %1).</translation>
    </message>
    <message>
        <source>A job ID must start with a letter.</source>
        <translation>Un ID de trabajo debe empezar por una letra.</translation>
    </message>
    <message>
        <source>A job ID may contain only letters, digits and underscores, not &quot;%1&quot;.</source>
        <translation>Un ID de trabajo solo puede contener letras, dígitos y guiones bajos, no «%1».</translation>
    </message>
    <message>
        <source>A job may have at most 64 labels (this one has %1).</source>
        <translation>Un trabajo puede tener como máximo 64 etiquetas (este tiene %1).</translation>
    </message>
    <message>
        <source>A label key must not be empty.</source>
        <translation>La clave de una etiqueta no puede estar vacía.</translation>
    </message>
    <message>
        <source>A label key may be at most 63 characters long.</source>
        <translation>La clave de una etiqueta puede tener como máximo 63 caracteres.</translation>
    </message>
    <message>
        <source>A label key must start with a lowercase letter.</source>
        <translation>La clave de una etiqueta debe empezar por una letra minúscula.</translation>
    </message>
    <message>
        <source>A label key may contain only lowercase letters, digits, &apos;_&apos; and &apos;-&apos;.</source>
        <translation>La clave de una etiqueta solo puede contener letras minúsculas, dígitos, «_» y «-».</translation>
    </message>
    <message>
        <source>A label value may be at most 63 characters long.</source>
        <translation>El valor de una etiqueta puede tener como máximo 63 caracteres.</translation>
    </message>
    <message>
        <source>A label value may contain only lowercase letters, digits, &apos;_&apos; and &apos;-&apos; (&quot;%1&quot;).</source>
        <translation>El valor de una etiqueta solo puede contener letras minúsculas, dígitos, «_» y «-» («%1»).</translation>
    </message>
    <message>
        <source>pythonModule is required: the Python module to run, e.g. trainer.task.</source>
        <translation>pythonModule es obligatorio: el módulo de Python que se ejecuta, p. ej. trainer.task.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Python module name (dotted identifiers, e.g. trainer.task).</source>
        <extracomment>%1 is the pythonModule the job gives.</extracomment>
        <translation>«%1» no es un nombre de módulo de Python (identificadores separados por puntos, p. ej. trainer.task).</translation>
    </message>
    <message>
        <source>At least one training package is required (a directory with setup.py or pyproject.toml, or an sdist .tar.gz).</source>
        <translation>Se necesita al menos un paquete de entrenamiento (un directorio con setup.py o pyproject.toml, o un sdist .tar.gz).</translation>
    </message>
    <message>
        <source>A package URI must not be empty.</source>
        <translation>El URI de un paquete no puede estar vacío.</translation>
    </message>
    <message>
        <source>%1 must not be negative.</source>
        <extracomment>%1 is an API field name (workerCount, maxFailedTrials …), kept as is.</extracomment>
        <translation>%1 no puede ser negativo.</translation>
    </message>
    <message>
        <source>%1 must be at least 1.</source>
        <extracomment>%1 is an API field name (maxTrials, maxParallelTrials), kept as is.</extracomment>
        <translation>%1 debe ser al menos 1.</translation>
    </message>
    <message>
        <source>%1 is a Cloud TPU; Cloud TPUs exist only in Google Cloud and this workstation has none.</source>
        <extracomment>%1 is a machine type (cloud_tpu) or an accelerator type (TPU_V2).</extracomment>
        <translation>%1 es una Cloud TPU; las Cloud TPU solo existen en Google Cloud y esta estación de trabajo no tiene ninguna.</translation>
    </message>
    <message>
        <source>Unknown scale tier &quot;%1&quot;; expected one of %2.</source>
        <extracomment>%1 is the scale tier the job gives, %2 the list of scale tiers (BASIC, STANDARD_1 …).</extracomment>
        <translation>Nivel de escala «%1» desconocido; se esperaba uno de estos: %2.</translation>
    </message>
    <message>
        <source>%1 is not available here: %2</source>
        <extracomment>%1 is a scale tier (BASIC_TPU), %2 the machine catalog&apos;s reason.</extracomment>
        <translation>%1 no está disponible aquí: %2</translation>
    </message>
    <message>
        <source>masterType is required when scaleTier is CUSTOM.</source>
        <translation>masterType es obligatorio cuando scaleTier es CUSTOM.</translation>
    </message>
    <message>
        <source>%1 can only be set when scaleTier is CUSTOM (scaleTier is %2).</source>
        <extracomment>%1 is an API field name (masterType, workerCount, acceleratorConfig …), %2 the job&apos;s scale tier.</extracomment>
        <translation>%1 solo se puede indicar cuando scaleTier es CUSTOM (scaleTier es %2).</translation>
    </message>
    <message>
        <source>%1 is required when %2 is %3.</source>
        <extracomment>%1 is a machine type field (workerType …), %2 its count field (workerCount …), %3 the count.</extracomment>
        <translation>%1 es obligatorio cuando %2 es %3.</translation>
    </message>
    <message>
        <source>Unknown machine type &quot;%1&quot;; use a Compute Engine type such as n1-standard-4 or a legacy type such as standard (see /v1/projects/-/machineTypes).</source>
        <extracomment>%1 is the machine type the job gives. &quot;Compute Engine&quot; is Google&apos;s product name.</extracomment>
        <translation>Tipo de máquina «%1» desconocido; use un tipo de Compute Engine como n1-standard-4 o un tipo heredado como standard (consulte /v1/projects/-/machineTypes).</translation>
    </message>
    <message>
        <source>All machine types of a job must be Compute Engine types or all legacy types; %1 is a Compute Engine type but %2 is not.</source>
        <extracomment>%1 is a machine type (n1-standard-4), %2 an API field and its machine type (&quot;masterType complex_model_m&quot;).</extracomment>
        <translation>Los tipos de máquina de un trabajo deben ser todos de Compute Engine o todos heredados; %1 es un tipo de Compute Engine, pero %2 no.</translation>
    </message>
    <message>
        <source>All machine types of a job must be Compute Engine types or all legacy types; %1 is a legacy type but %2 is not.</source>
        <extracomment>%1 is a machine type (complex_model_m), %2 an API field and its machine type (&quot;masterType n1-standard-4&quot;).</extracomment>
        <translation>Los tipos de máquina de un trabajo deben ser todos de Compute Engine o todos heredados; %1 es un tipo heredado, pero %2 no.</translation>
    </message>
    <message>
        <source>An accelerator type is required when count is set.</source>
        <translation>Se necesita un tipo de acelerador cuando se indica count.</translation>
    </message>
    <message>
        <source>Unknown accelerator type &quot;%1&quot;; expected one of %2.</source>
        <extracomment>%1 is the accelerator type the job gives, %2 the list of accelerator types (NVIDIA_TESLA_T4 …).</extracomment>
        <translation>Tipo de acelerador «%1» desconocido; se esperaba uno de estos: %2.</translation>
    </message>
    <message>
        <source>The accelerator count must be at least 1.</source>
        <translation>La cantidad de aceleradores debe ser al menos 1.</translation>
    </message>
    <message>
        <source>acceleratorConfig can only be used with Compute Engine machine types; %1 is a legacy type that brings %2 x %3 itself. Use e.g. n1-standard-8 with acceleratorConfig instead.</source>
        <extracomment>%1 is a legacy machine type (standard_gpu), %2 x %3 the GPUs it brings (&quot;1 x NVIDIA_TESLA_K80&quot;).</extracomment>
        <translation>acceleratorConfig solo se puede usar con tipos de máquina de Compute Engine; %1 es un tipo heredado que ya incluye %2 x %3. Use en su lugar, p. ej., n1-standard-8 con acceleratorConfig.</translation>
    </message>
    <message>
        <source>acceleratorConfig can only be used with Compute Engine machine types; %1 is a legacy type. Use e.g. n1-standard-8 with acceleratorConfig instead.</source>
        <extracomment>%1 is a legacy machine type (complex_model_m).</extracomment>
        <translation>acceleratorConfig solo se puede usar con tipos de máquina de Compute Engine; %1 es un tipo heredado. Use en su lugar, p. ej., n1-standard-8 con acceleratorConfig.</translation>
    </message>
    <message>
        <source>%1 cannot be attached to machine type %2; machine types that take it: %3.</source>
        <extracomment>%1 is an accelerator type (NVIDIA_TESLA_A100), %2 a machine type, %3 a list of machine types.</extracomment>
        <translation>%1 no se puede conectar al tipo de máquina %2; tipos de máquina que lo admiten: %3.</translation>
    </message>
    <message>
        <source>Machine type %1 takes %2 x %3, not %4.</source>
        <extracomment>%1 is a machine type, %2 the allowed counts (&quot;1, 2, 4&quot;), %3 an accelerator type, %4 the job&apos;s count.</extracomment>
        <translation>El tipo de máquina %1 admite %2 x %3, no %4.</translation>
    </message>
    <message>
        <source>this host has no GPUs</source>
        <extracomment>The second half of a sentence (&quot;The cluster asks for 2 GPUs in all; this host has no GPUs.&quot;).</extracomment>
        <translation>este host no tiene GPU</translation>
    </message>
    <message numerus="yes">
        <source>this host has %n GPU(s) (%1), %2 of which can serve %3</source>
        <extracomment>The second half of a sentence (&quot;The cluster asks for 3 GPUs in all; this host has …&quot;). %1 is the list of the host&apos;s GPUs (&quot;0: Tesla T4 (NVIDIA_TESLA_T4), 1: …&quot;), %2 a count, %3 an accelerator type.</extracomment>
        <translation>
            <numerusform>este host tiene %n GPU (%1); aptas para %3: %2</numerusform>
            <numerusform>este host tiene %n GPU (%1); aptas para %3: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>The %1 asks for %2 x %3 per replica (%4 in all); %5.</source>
        <extracomment>%1 is a replica role as TF_CONFIG names it (master, worker, ps, evaluator; kept as is), %2 x %3 the GPUs per replica (&quot;2 x NVIDIA_TESLA_T4&quot;), %4 the GPUs of that type in all, %5 &quot;this host has …&quot;.</extracomment>
        <translation>El rol %1 solicita %2 x %3 por réplica (%4 en total); %5.</translation>
    </message>
    <message numerus="yes">
        <source>The cluster asks for %n GPU(s) in all; %1.</source>
        <extracomment>%1 is &quot;this host has …&quot;.</extracomment>
        <translation>
            <numerusform>El clúster solicita %n GPU en total; %1.</numerusform>
            <numerusform>El clúster solicita %n GPU en total; %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replica(s) (at most %1 here)</source>
        <extracomment>A part of &quot;This host can never hold the cluster: it asks for %1; …&quot;. %1 is this host&apos;s limit.</extracomment>
        <translation>
            <numerusform>%n réplica (como máximo %1 aquí)</numerusform>
            <numerusform>%n réplicas (como máximo %1 aquí)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 vCPUs (at most %2 here)</source>
        <extracomment>A part of &quot;This host can never hold the cluster: it asks for %1; …&quot;. %2 is this host&apos;s limit.</extracomment>
        <translation>%1 vCPU (como máximo %2 aquí)</translation>
    </message>
    <message>
        <source>%1 GB of memory (at most %2 GB here)</source>
        <extracomment>A part of &quot;This host can never hold the cluster: it asks for %1; …&quot;. %2 is this host&apos;s limit.</extracomment>
        <translation>%1 GB de memoria (como máximo %2 GB aquí)</translation>
    </message>
    <message>
        <source>goal is required for hyperparameter tuning: MAXIMIZE or MINIMIZE.</source>
        <translation>goal es obligatorio para el ajuste de hiperparámetros: MAXIMIZE o MINIMIZE.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid job ID.</source>
        <extracomment>%1 is the resumePreviousJobId the job gives.</extracomment>
        <translation>«%1» no es un ID de trabajo válido.</translation>
    </message>
    <message>
        <source>At least one parameter is required for hyperparameter tuning.</source>
        <translation>El ajuste de hiperparámetros necesita al menos un parámetro.</translation>
    </message>
    <message>
        <source>categoricalValues are only for CATEGORICAL parameters.</source>
        <translation>categoricalValues solo es para parámetros CATEGORICAL.</translation>
    </message>
    <message>
        <source>discreteValues are only for DISCRETE parameters.</source>
        <translation>discreteValues solo es para parámetros DISCRETE.</translation>
    </message>
    <message>
        <source>minValue/maxValue are only for DOUBLE and INTEGER parameters.</source>
        <translation>minValue/maxValue solo son para parámetros DOUBLE e INTEGER.</translation>
    </message>
    <message>
        <source>parameterName is required.</source>
        <translation>parameterName es obligatorio.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid parameter name (letters, digits, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;; it is passed to the trainer as --NAME).</source>
        <extracomment>%1 is the parameterName the job gives; --NAME is a command-line flag, kept as is.</extracomment>
        <translation>«%1» no es un nombre de parámetro válido (letras, dígitos, &apos;_&apos;, &apos;-&apos;, &apos;.&apos;; se pasa al entrenador como --NAME).</translation>
    </message>
    <message>
        <source>Duplicate parameter name &quot;%1&quot;.</source>
        <translation>Nombre de parámetro «%1» duplicado.</translation>
    </message>
    <message>
        <source>type is required: DOUBLE, INTEGER, CATEGORICAL or DISCRETE.</source>
        <translation>type es obligatorio: DOUBLE, INTEGER, CATEGORICAL o DISCRETE.</translation>
    </message>
    <message>
        <source>minValue is required for %1 parameters.</source>
        <extracomment>%1 is a parameter type (DOUBLE or INTEGER).</extracomment>
        <translation>minValue es obligatorio para los parámetros %1.</translation>
    </message>
    <message>
        <source>maxValue is required for %1 parameters.</source>
        <extracomment>%1 is a parameter type (DOUBLE or INTEGER).</extracomment>
        <translation>maxValue es obligatorio para los parámetros %1.</translation>
    </message>
    <message>
        <source>minValue of an INTEGER parameter must be an integer.</source>
        <translation>minValue de un parámetro INTEGER debe ser un número entero.</translation>
    </message>
    <message>
        <source>maxValue of an INTEGER parameter must be an integer.</source>
        <translation>maxValue de un parámetro INTEGER debe ser un número entero.</translation>
    </message>
    <message>
        <source>maxValue (%1) must be greater than minValue (%2).</source>
        <translation>maxValue (%1) debe ser mayor que minValue (%2).</translation>
    </message>
    <message>
        <source>DOUBLE parameters cannot be searched with algorithm GRID_SEARCH; use INTEGER, CATEGORICAL or DISCRETE, or another algorithm.</source>
        <translation>Los parámetros DOUBLE no se pueden explorar con el algoritmo GRID_SEARCH; use INTEGER, CATEGORICAL o DISCRETE, u otro algoritmo.</translation>
    </message>
    <message>
        <source>CATEGORICAL parameters need categoricalValues.</source>
        <translation>Los parámetros CATEGORICAL necesitan categoricalValues.</translation>
    </message>
    <message>
        <source>categoricalValues must be distinct.</source>
        <translation>Los valores de categoricalValues deben ser distintos.</translation>
    </message>
    <message>
        <source>DISCRETE parameters need discreteValues.</source>
        <translation>Los parámetros DISCRETE necesitan discreteValues.</translation>
    </message>
    <message>
        <source>discreteValues must be strictly increasing; %1 follows %2.</source>
        <extracomment>%1 and %2 are two values of discreteValues; %1 comes right after %2.</extracomment>
        <translation>discreteValues debe ser estrictamente creciente; %1 va después de %2.</translation>
    </message>
    <message>
        <source>%1 needs values greater than 0; the lowest is %2.</source>
        <extracomment>%1 is a scale type (UNIT_LOG_SCALE, UNIT_REVERSE_LOG_SCALE), %2 the lowest value.</extracomment>
        <translation>%1 necesita valores mayores que 0; el menor es %2.</translation>
    </message>
    <message>
        <source>CATEGORICAL parameters have no scale.</source>
        <translation>Los parámetros CATEGORICAL no tienen escala.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a duration; write seconds with an &quot;s&quot; suffix, e.g. &quot;7200s&quot;.</source>
        <extracomment>%1 is the duration the job gives; &quot;7200s&quot; is the API&apos;s duration format, kept as is.</extracomment>
        <translation>«%1» no es una duración; escriba los segundos con el sufijo «s», p. ej. «7200s».</translation>
    </message>
    <message>
        <source>%1 must be greater than 0s.</source>
        <extracomment>%1 is an API field name (maxRunningTime, maxWaitTime), kept as is.</extracomment>
        <translation>%1 debe ser mayor que 0s.</translation>
    </message>
    <message>
        <source>priority must be between 0 and 1000.</source>
        <translation>priority debe estar entre 0 y 1000.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a runtime version; expected MAJOR.MINOR, e.g. &quot;2.11&quot;.</source>
        <extracomment>%1 is the runtimeVersion the job gives.</extracomment>
        <translation>«%1» no es una versión del entorno de ejecución; se esperaba MAJOR.MINOR, p. ej. «2.11».</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Python version; expected MAJOR.MINOR, e.g. &quot;3.7&quot;.</source>
        <extracomment>%1 is the pythonVersion the job gives.</extracomment>
        <translation>«%1» no es una versión de Python; se esperaba MAJOR.MINOR, p. ej. «3.7».</translation>
    </message>
    <message numerus="yes">
        <source>This host can never hold the cluster: it asks for %1; this host has %n CPU(s) and %2 GB of memory, and a job may use %3 vCPUs per CPU, %4 GB per GB of memory and %5 replicas per CPU (at least %6). Use fewer or smaller replicas.</source>
        <extracomment>%1 is a list of what the cluster asks for (&quot;61 replicas (at most 32 here), 244 vCPUs (at most 64 here)&quot;), %n this host&apos;s CPUs, %2 its memory, %3 to %6 the host policy&apos;s limits.</extracomment>
        <translation>
            <numerusform>Este host nunca podrá alojar el clúster: solicita %1; este host tiene %n CPU y %2 GB de memoria, y un trabajo puede usar %3 vCPU por CPU, %4 GB por GB de memoria y %5 réplicas por CPU (al menos %6). Use menos réplicas o réplicas más pequeñas.</numerusform>
            <numerusform>Este host nunca podrá alojar el clúster: solicita %1; este host tiene %n CPU y %2 GB de memoria, y un trabajo puede usar %3 vCPU por CPU, %4 GB por GB de memoria y %5 réplicas por CPU (al menos %6). Use menos réplicas o réplicas más pequeñas.</numerusform>
        </translation>
    </message>
    <message>
        <source>maxFailedTrials (%1) must not be more than maxTrials (%2): the study ends before that many trials can fail. 0 lets the service decide.</source>
        <extracomment>%1 is the maxFailedTrials the job gives, %2 its maxTrials (API field names, kept as is).</extracomment>
        <translation>maxFailedTrials (%1) no puede ser mayor que maxTrials (%2): el estudio termina antes de que fallen tantas pruebas. 0 deja que decida el servicio.</translation>
    </message>
    <message>
        <source>discreteValues holds %1 values; at most %2 are allowed.</source>
        <extracomment>%1 is how many discreteValues the job gives, %2 the limit (1000).</extracomment>
        <translation>discreteValues contiene %1 valores; se permiten como máximo %2.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a clean path: it must have no &quot;.&quot;, &quot;..&quot; or empty components.</source>
        <extracomment>%1 is the path as given.</extracomment>
        <translation>&quot;%1&quot; no es una ruta limpia: no debe tener componentes &quot;.&quot;, &quot;..&quot; ni vacíos.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a container image reference ([host[:port]/]name[:tag][@sha256:digest], e.g. localhost/trainer:1).</source>
        <extracomment>%1 is the imageUri the job gives.</extracomment>
        <translation>«%1» no es una referencia de imagen de contenedor ([host[:puerto]/]nombre[:etiqueta][@sha256:resumen], p. ej. localhost/trainer:1).</translation>
    </message>
    <message>
        <source>%1 can be set only together with imageUri (a custom container).</source>
        <extracomment>%1 is containerCommand or containerArgs, kept as is.</extracomment>
        <translation>%1 solo puede indicarse junto con imageUri (un contenedor personalizado).</translation>
    </message>
    <message>
        <source>containerArgs and trainingInput.args are mutually exclusive: give the arguments in one of them.</source>
        <translation>containerArgs y trainingInput.args se excluyen mutuamente: indique los argumentos en uno de los dos.</translation>
    </message>
    <message>
        <source>%1 must not be set with masterConfig.imageUri: every replica runs a container image.</source>
        <extracomment>%1 is an API field name (runtimeVersion, packageUris …), kept as is.</extracomment>
        <translation>%1 no debe indicarse con masterConfig.imageUri: todas las réplicas ejecutan una imagen de contenedor.</translation>
    </message>
    <message>
        <source>An argument may be at most %2 bytes long (the kernel&apos;s limit for one argument); this one has %1.</source>
        <extracomment>%1 and %2 are byte counts.</extracomment>
        <translation>Un argumento puede ocupar como máximo %2 bytes (el límite del núcleo para un argumento); este tiene %1.</translation>
    </message>
    <message>
        <source>The arguments together may be at most %2 bytes; these have %1. Pass large inputs as a file in the package or the job dir.</source>
        <translation>Los argumentos en conjunto pueden ocupar como máximo %2 bytes; estos tienen %1. Pase las entradas grandes como un archivo en el paquete o en el directorio del trabajo.</translation>
    </message>
    <message>
        <source>At most %1 package URIs are allowed (the service&apos;s limit); this job gives %2.</source>
        <translation>Se permiten como máximo %1 URI de paquete (el límite del servicio); este trabajo indica %2.</translation>
    </message>
    <message>
        <source>A job may be at most %2 bytes as JSON; this one has %1.</source>
        <translation>Un trabajo puede ocupar como máximo %2 bytes en JSON; este tiene %1.</translation>
    </message>
    <message>
        <source>A package URI must be a path of fewer than %1 bytes, without NUL characters.</source>
        <translation>El URI de un paquete debe ser una ruta de menos de %1 bytes, sin caracteres NUL.</translation>
    </message>
    <message>
        <source>A project ID is required.</source>
        <translation>El ID del proyecto es obligatorio.</translation>
    </message>
    <message>
        <source>A project ID has 6 to 30 characters (this one has %1), or is &quot;%2&quot;.</source>
        <translation>Un ID de proyecto tiene entre 6 y 30 caracteres (este tiene %1), o es &quot;%2&quot;.</translation>
    </message>
    <message>
        <source>A project ID must start with a lowercase letter.</source>
        <translation>Un ID de proyecto debe empezar por una letra minúscula.</translation>
    </message>
    <message>
        <source>A project ID cannot end with a hyphen.</source>
        <translation>Un ID de proyecto no puede terminar en guion.</translation>
    </message>
    <message>
        <source>A project ID may contain only lowercase letters, digits and hyphens, not &quot;%1&quot;.</source>
        <translation>Un ID de proyecto solo puede contener letras minúsculas, dígitos y guiones, no &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>%1 is a built-in algorithm&apos;s image: name it as masterConfig.imageUri (the other replicas run the master&apos;s).</source>
        <extracomment>%1 is the image URI; masterConfig.imageUri is an API field, kept as is.</extracomment>
        <translation>%1 es la imagen de un algoritmo integrado: indíquela como masterConfig.imageUri (las demás réplicas ejecutan la del maestro).</translation>
    </message>
    <message>
        <source>%1 is not a built-in algorithm Trainyard runs (image classification, object detection, BERT and TabNet need TensorFlow, which Debian does not ship). The built-in algorithms here: %2.</source>
        <extracomment>%1 is the image the job names, %2 the list of image URIs Trainyard runs.</extracomment>
        <translation>%1 no es un algoritmo integrado que Trainyard ejecute (la clasificación de imágenes, la detección de objetos, BERT y TabNet necesitan TensorFlow, que Debian no incluye). Los algoritmos integrados disponibles aquí: %2.</translation>
    </message>
    <message>
        <source>%1 writes its model under the job dir: set jobDir (gcloud&apos;s --job-dir).</source>
        <extracomment>%1 is the algorithm&apos;s name.</extracomment>
        <translation>%1 escribe su modelo en el directorio del trabajo: indique jobDir (--job-dir de gcloud).</translation>
    </message>
    <message>
        <source>A built-in algorithm takes no %1: give its arguments in trainingInput.args (after -- on the gcloud command line).</source>
        <extracomment>%1 is containerCommand or containerArgs; trainingInput.args is an API field. Kept as is.</extracomment>
        <translation>Un algoritmo integrado no admite %1: indique sus argumentos en trainingInput.args (después de -- en la línea de comandos de gcloud).</translation>
    </message>
    <message>
        <source>%1 needs scaleTier CUSTOM with a master and at least one worker (not %2).</source>
        <extracomment>%1 is the algorithm&apos;s name, %2 the scale tier.</extracomment>
        <translation>%1 necesita scaleTier CUSTOM con un maestro y al menos un trabajador (no %2).</translation>
    </message>
    <message>
        <source>%1 needs a master and at least one worker: set workerCount to 1 or more.</source>
        <translation>%1 necesita un maestro y al menos un trabajador: establezca workerCount en 1 o más.</translation>
    </message>
    <message>
        <source>%1 takes no parameter servers: the replicas train together with XGBoost&apos;s own collective.</source>
        <translation>%1 no admite servidores de parámetros: las réplicas entrenan juntas con el propio collective de XGBoost.</translation>
    </message>
    <message>
        <source>%1 takes no evaluators.</source>
        <translation>%1 no admite evaluadores.</translation>
    </message>
    <message>
        <source>%1 trains on one replica: use scaleTier BASIC, BASIC_GPU or CUSTOM with no workers (not %2).</source>
        <extracomment>%1 is the algorithm&apos;s name, %2 the scale tier.</extracomment>
        <translation>%1 entrena en una sola réplica: use scaleTier BASIC, BASIC_GPU o CUSTOM sin trabajadores (no %2).</translation>
    </message>
    <message>
        <source>%1 trains on one replica, the master: set no other replicas (for distributed training, use %2).</source>
        <extracomment>%1 is the algorithm&apos;s name, %2 the distributed XGBoost image URI.</extracomment>
        <translation>%1 entrena en una sola réplica, el maestro: no indique otras réplicas (para el entrenamiento distribuido, use %2).</translation>
    </message>
    <message>
        <source>A job has a trainingInput or a predictionInput, not both.</source>
        <translation>Un trabajo tiene un trainingInput o un predictionInput, no ambos.</translation>
    </message>
    <message>
        <source>Exactly one of modelName, versionName and uri must be given (the model&apos;s default version, one version, or a model folder); %1 given.</source>
        <translation>Debe indicarse exactamente uno de modelName, versionName y uri (la versión predeterminada del modelo, una versión o una carpeta de modelo); se indicaron %1.</translation>
    </message>
    <message>
        <source>modelName must be projects/PROJECT/models/MODEL (&quot;%1&quot;).</source>
        <translation>modelName debe ser projects/PROJECT/models/MODEL («%1»).</translation>
    </message>
    <message>
        <source>versionName must be projects/PROJECT/models/MODEL/versions/VERSION (&quot;%1&quot;).</source>
        <translation>versionName debe ser projects/PROJECT/models/MODEL/versions/VERSION («%1»).</translation>
    </message>
    <message>
        <source>The path must be absolute (&quot;%1&quot;).</source>
        <translation>La ruta debe ser absoluta («%1»).</translation>
    </message>
    <message>
        <source>dataFormat is required: JSON, TEXT or CSV.</source>
        <translation>dataFormat es obligatorio: JSON, TEXT o CSV.</translation>
    </message>
    <message>
        <source>%1 input cannot be read here: this system has no TensorFlow runtime. Give JSON, TEXT or CSV lines.</source>
        <translation>La entrada %1 no se puede leer aquí: este sistema no tiene runtime de TensorFlow. Indique líneas JSON, TEXT o CSV.</translation>
    </message>
    <message>
        <source>outputDataFormat must be JSON or CSV, not %1.</source>
        <translation>outputDataFormat debe ser JSON o CSV, no %1.</translation>
    </message>
    <message>
        <source>inputPaths is required: at least one file or pattern.</source>
        <translation>inputPaths es obligatorio: al menos un archivo o patrón.</translation>
    </message>
    <message>
        <source>A wildcard (*) is allowed only in the last part of a path, as the service allows (&quot;%1&quot;).</source>
        <translation>Un comodín (*) solo se permite en la última parte de una ruta, como en el servicio («%1»).</translation>
    </message>
    <message>
        <source>outputPath is required.</source>
        <translation>outputPath es obligatorio.</translation>
    </message>
    <message>
        <source>maxWorkerCount must be at least 1.</source>
        <translation>maxWorkerCount debe ser al menos 1.</translation>
    </message>
    <message>
        <source>batchSize must be between 1 and 10000 records.</source>
        <translation>batchSize debe estar entre 1 y 10000 registros.</translation>
    </message>
    <message>
        <source>The job dir</source>
        <translation>El directorio del trabajo</translation>
    </message>
    <message>
        <source>the job dir</source>
        <translation>el directorio del trabajo</translation>
    </message>
    <message>
        <source>The model folder</source>
        <translation>La carpeta del modelo</translation>
    </message>
    <message>
        <source>the model folder</source>
        <translation>la carpeta del modelo</translation>
    </message>
    <message>
        <source>The output folder</source>
        <translation>La carpeta de salida</translation>
    </message>
    <message>
        <source>the output folder</source>
        <translation>la carpeta de salida</translation>
    </message>
    <message>
        <source>The input file</source>
        <translation>El archivo de entrada</translation>
    </message>
    <message>
        <source>the input file</source>
        <translation>el archivo de entrada</translation>
    </message>
    <message>
        <source>The package</source>
        <translation>El paquete</translation>
    </message>
    <message>
        <source>the package</source>
        <translation>el paquete</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a local folder or file: on this workstation %2 is on this host, given as an absolute path.</source>
        <extracomment>%1 is the path as given (a URL), %2 what the field names (&quot;the job dir&quot;).</extracomment>
        <translation>&quot;%1&quot; no es una carpeta ni un archivo local: en esta estación de trabajo %2 está en este host y se indica como ruta absoluta.</translation>
    </message>
    <message>
        <source>%1 contains a NUL character, which no file path can hold.</source>
        <extracomment>%1 is what the field names (&quot;The job dir&quot;).</extracomment>
        <translation>%1 contiene un carácter NUL, que ninguna ruta de archivo puede contener.</translation>
    </message>
    <message>
        <source>A folder name in %4, &quot;%1…&quot;, is %2 bytes long; a folder name on this system has at most %3.</source>
        <extracomment>%1 is the start of the long folder name, %2 and %3 byte counts, %4 what the field names (&quot;the job dir&quot;).</extracomment>
        <translation>Un nombre de carpeta (%4), &quot;%1…&quot;, ocupa %2 bytes; en este sistema un nombre de carpeta tiene como máximo %3.</translation>
    </message>
    <message>
        <source>%1 is %2 bytes long; a path on this system has fewer than %3.</source>
        <extracomment>%1 is what the field names (&quot;The job dir&quot;), %2 and %3 are byte counts.</extracomment>
        <translation>%1 ocupa %2 bytes; en este sistema una ruta tiene menos de %3.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an absolute path: %2 is used as it is given, so &quot;~&quot; and relative paths are not expanded. Give a full path such as /home/you/jobs/run1.</source>
        <extracomment>%1 is the path as given, %2 what the field names (&quot;the job dir&quot;); &quot;~&quot; and relative paths are not expanded.</extracomment>
        <translation>&quot;%1&quot; no es una ruta absoluta: %2 se usa tal como se indica, así que &quot;~&quot; y las rutas relativas no se expanden. Indique una ruta completa como /home/usted/jobs/run1.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; lies outside the files a job may use: /proc, /sys and /dev name the kernel&apos;s processes and devices (/proc/self is the executor itself), never a job&apos;s files, which lie in %2.</source>
        <extracomment>%1 is the path as given, %2 the folders (comma-separated) where jobs&apos; files lie.</extracomment>
        <translation>&quot;%1&quot; está fuera de los archivos que un trabajo puede usar: /proc, /sys y /dev nombran procesos y dispositivos del kernel (/proc/self es el propio ejecutor), nunca archivos de un trabajo, que están en %2.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is, holds or lies in one of the executor&apos;s own folders (its database, access tokens, audit log, keys and settings), which no job may use: %2 must lie elsewhere.</source>
        <extracomment>%1 is the path as given, %2 what the field names (&quot;The job dir&quot;).</extracomment>
        <translation>&quot;%1&quot; es, contiene o está dentro de una de las carpetas propias del ejecutor (su base de datos, tokens de acceso, registro de auditoría, claves y ajustes), que ningún trabajo puede usar: %2 debe estar en otro lugar.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; lies outside the folders where this executor keeps jobs&apos; files (%2): %3 must lie inside one of them (the executor&apos;s --job-dir-root option sets them).</source>
        <extracomment>%1 is the path as given, %2 the folders (comma-separated) it may lie in, %3 what the field names (&quot;the job dir&quot;).</extracomment>
        <translation>&quot;%1&quot; está fuera de las carpetas donde este ejecutor guarda los archivos de los trabajos (%2): %3 debe estar dentro de una de ellas (la opción --job-dir-root del ejecutor las define).</translation>
    </message>
    <message>
        <source>The package %1 does not exist on the executor&apos;s host.</source>
        <extracomment>%1 is the package path as given.</extracomment>
        <translation>El paquete %1 no existe en el host del ejecutor.</translation>
    </message>
    <message>
        <source>The package %1 is neither a source distribution (.tar.gz, .zip) nor a wheel (.whl).</source>
        <extracomment>%1 is the package file as given.</extracomment>
        <translation>El paquete %1 no es una distribución de código fuente (.tar.gz, .zip) ni un wheel (.whl).</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is in Cloud Storage, which this executor cannot reach: copy it to this host and give %2 as an absolute path here.</source>
        <extracomment>%1 is the path as given, %2 what the field names (&quot;the job dir&quot;).</extracomment>
        <translation>&quot;%1&quot; está en Cloud Storage, que este ejecutor no puede alcanzar: cópielo a este equipo e indique %2 aquí como ruta absoluta.</translation>
    </message>
    <message>
        <source>The package folder %1 has neither setup.py nor pyproject.toml, nor an __init__.py (a package folder, as gcloud&apos;s --package-path), so pip cannot build it.</source>
        <extracomment>%1 is the package folder as given.</extracomment>
        <translation>La carpeta de paquete %1 no tiene setup.py, pyproject.toml ni __init__.py (una carpeta de paquete, como en --package-path de gcloud), así que pip no puede construirla.</translation>
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
        <translation>Abrir directorio del trabajo</translation>
    </message>
    <message>
        <source>Submit similar…</source>
        <translation>Enviar uno similar…</translation>
    </message>
    <message>
        <source>State timeline</source>
        <translation>Cronología de estados</translation>
    </message>
    <message>
        <source>Stop every replica of this job</source>
        <translation>Detener todas las réplicas de este trabajo</translation>
    </message>
    <message>
        <source>Open the job directory in the file manager</source>
        <translation>Abrir el directorio del trabajo en el gestor de archivos</translation>
    </message>
    <message>
        <source>Job (gcloud --config YAML)</source>
        <translation>Trabajo (YAML de gcloud --config)</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>Acercar</translation>
    </message>
    <message>
        <source>Zoom in (Ctrl++)</source>
        <translation>Acercar (Ctrl++)</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>Alejar</translation>
    </message>
    <message>
        <source>Zoom out (Ctrl+-)</source>
        <translation>Alejar (Ctrl+-)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Ajustar</translation>
    </message>
    <message>
        <source>Show the whole cluster (Ctrl+0)</source>
        <translation>Mostrar todo el clúster (Ctrl+0)</translation>
    </message>
    <message>
        <source>Click a replica to see its logs.</source>
        <translation>Haga clic en una réplica para ver sus registros.</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Resumen</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>Topología</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>Registros</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Error: %1</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Creado</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Iniciado</translation>
    </message>
    <message>
        <source>after %1 in the queue</source>
        <translation>tras %1 en la cola</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>En espera</translation>
    </message>
    <message>
        <source>position %1 in the queue</source>
        <translation>posición %1 en la cola</translation>
    </message>
    <message>
        <source>ran %1</source>
        <translation>se ejecutó durante %1</translation>
    </message>
    <message>
        <source>Now: %1</source>
        <translation>Ahora: %1</translation>
    </message>
    <message>
        <source>running for %1</source>
        <translation>en ejecución desde hace %1</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 a las %2</translation>
    </message>
    <message>
        <source>Seen here: %1</source>
        <translation>Visto aquí: %1</translation>
    </message>
    <message>
        <source>Cancel job %1? Every replica will be stopped.</source>
        <translation>¿Cancelar el trabajo %1? Se detendrán todas las réplicas.</translation>
    </message>
    <message>
        <source>Could not cancel %1: %2</source>
        <translation>No se pudo cancelar %1: %2</translation>
    </message>
    <message>
        <source>Cancelling %1…</source>
        <translation>Cancelando %1…</translation>
    </message>
    <message>
        <source>The job directory %1 does not exist (yet).</source>
        <translation>El directorio del trabajo %1 no existe (todavía).</translation>
    </message>
    <message>
        <source>No application could open %1.</source>
        <translation>Ninguna aplicación pudo abrir %1.</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Puntos de control</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Métricas</translation>
    </message>
    <message>
        <source>Resumed from &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Reanudado desde &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Resumed from &lt;b&gt;%1&lt;/b&gt; (%2)</source>
        <translation>Reanudado desde &lt;b&gt;%1&lt;/b&gt; (%2)</translation>
    </message>
    <message>
        <source>trial %1</source>
        <translation>prueba %1</translation>
    </message>
    <message>
        <source>Checkpoints the cluster resumed from</source>
        <translation>Puntos de control desde los que se reanudó el clúster</translation>
    </message>
    <message>
        <source>From the trainer&apos;s &quot;Resuming from checkpoint&quot; log lines (master-replica-0)</source>
        <translation>De las líneas de registro «Resuming from checkpoint» del entrenador (master-replica-0)</translation>
    </message>
    <message>
        <source>Show in &amp;Logs</source>
        <translation>Mostrar en los &amp;registros</translation>
    </message>
    <message>
        <source>The failed replica&apos;s logs, at its first error</source>
        <translation>Los registros de la réplica fallida, en su primer error</translation>
    </message>
    <message>
        <source>Show l&amp;ess</source>
        <translation>Mostrar m&amp;enos</translation>
    </message>
    <message>
        <source>Show &amp;more</source>
        <translation>Mostrar &amp;más</translation>
    </message>
    <message>
        <source>&amp;Cancel Job</source>
        <translation>&amp;Cancelar trabajo</translation>
    </message>
    <message>
        <source>&amp;Keep Running</source>
        <translation>&amp;Mantener en ejecución</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Pruebas</translation>
    </message>
    <message>
        <source>Trial %1</source>
        <translation>Prueba %1</translation>
    </message>
    <message>
        <source>Trial %1 (the latest)</source>
        <translation>Prueba %1 (la más reciente)</translation>
    </message>
    <message>
        <source>The replicas of one trial; select trials in the Trials tab to see theirs.</source>
        <translation>Las réplicas de una prueba; seleccione pruebas en la pestaña Pruebas para ver las suyas.</translation>
    </message>
    <message>
        <source>started %1 ago</source>
        <translation>iniciado hace %1</translation>
    </message>
    <message>
        <source>Cancel Job…</source>
        <translation>Cancelar trabajo…</translation>
    </message>
    <message>
        <source>Cancel Job</source>
        <translation>Cancelar trabajo</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation>Predicciones</translation>
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
        <translation>Todas las réplicas</translation>
    </message>
    <message>
        <source>Show the lines of one replica</source>
        <translation>Mostrar las líneas de una réplica</translation>
    </message>
    <message>
        <source>All severities</source>
        <translation>Todas las gravedades</translation>
    </message>
    <message>
        <source>Debug and above</source>
        <translation>Depuración y superiores</translation>
    </message>
    <message>
        <source>Info and above</source>
        <translation>Información y superiores</translation>
    </message>
    <message>
        <source>Warnings and above</source>
        <translation>Advertencias y superiores</translation>
    </message>
    <message>
        <source>Errors and above</source>
        <translation>Errores y superiores</translation>
    </message>
    <message>
        <source>Minimum severity</source>
        <translation>Gravedad mínima</translation>
    </message>
    <message>
        <source>Filter lines (text)</source>
        <translation>Filtrar líneas (texto)</translation>
    </message>
    <message>
        <source>Treat the filter as a regular expression</source>
        <translation>Tratar el filtro como una expresión regular</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>Seguir</translation>
    </message>
    <message>
        <source>Keep the newest line in view (End)</source>
        <translation>Mantener visible la línea más reciente (Fin)</translation>
    </message>
    <message>
        <source>Previous error</source>
        <translation>Error anterior</translation>
    </message>
    <message>
        <source>Previous error (Shift+F8)</source>
        <translation>Error anterior (Mayús+F8)</translation>
    </message>
    <message>
        <source>Next error</source>
        <translation>Error siguiente</translation>
    </message>
    <message>
        <source>Next error (F8)</source>
        <translation>Error siguiente (F8)</translation>
    </message>
    <message>
        <source>Invalid regular expression: %1</source>
        <translation>Expresión regular no válida: %1</translation>
    </message>
    <message>
        <source>Filtering…</source>
        <translation>Filtrando…</translation>
    </message>
    <message>
        <source>stdout and stderr</source>
        <translation>stdout y stderr</translation>
    </message>
    <message>
        <source>stdout only</source>
        <translation>Solo stdout</translation>
    </message>
    <message>
        <source>stderr only</source>
        <translation>Solo stderr</translation>
    </message>
    <message>
        <source>Which of the replicas&apos; output streams to show (stderr holds Python&apos;s logging, warnings and tracebacks)</source>
        <translation>Qué flujos de salida de las réplicas se muestran (stderr contiene el logging de Python, las advertencias y las trazas de error)</translation>
    </message>
    <message>
        <source>Trial %1</source>
        <extracomment>%1 is a trial ID of a tuning job (&quot;3&quot;).</extracomment>
        <translation>Prueba %1</translation>
    </message>
    <message>
        <source>Only this trial&apos;s lines (selected in the Trials tab)</source>
        <translation>Solo las líneas de esta prueba (seleccionada en la pestaña Pruebas)</translation>
    </message>
    <message>
        <source>No error below this line.</source>
        <translation>No hay ningún error debajo de esta línea.</translation>
    </message>
    <message>
        <source>No error above this line.</source>
        <translation>No hay ningún error encima de esta línea.</translation>
    </message>
    <message>
        <source>No error in the lines the filters show.</source>
        <translation>No hay ningún error en las líneas que muestran los filtros.</translation>
    </message>
    <message>
        <source>No error in this log.</source>
        <translation>No hay ningún error en este registro.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln line(s)</source>
        <translation>
            <numerusform>%Ln línea</numerusform>
            <numerusform>%Ln líneas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln line(s)</source>
        <translation>
            <numerusform>%1 de %Ln línea</numerusform>
            <numerusform>%1 de %Ln líneas</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MachineCatalog</name>
    <message>
        <source>Cloud TPUs exist only in Google Cloud; a workstation has none.</source>
        <translation>Las Cloud TPU solo existen en Google Cloud; una estación de trabajo no tiene ninguna.</translation>
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
        <translation>Filtro: jobId:fmnist* AND state:RUNNING AND labels.owner=alice</translation>
    </message>
    <message>
        <source>The service&apos;s filter syntax: field:value (prefix with a trailing *), field=value, joined by AND; fields jobId, state, labels.KEY, createTime (also &lt; &gt; &lt;= &gt;=). Ctrl+F</source>
        <translation>La sintaxis de filtros del servicio: campo:valor (prefijo con un * final), campo=valor, unidos con AND; campos jobId, state, labels.CLAVE, createTime (también &lt; &gt; &lt;= &gt;=). Ctrl+F</translation>
    </message>
    <message>
        <source>Select a job to see its overview, topology and logs.</source>
        <translation>Seleccione un trabajo para ver su resumen, topología y registros.</translation>
    </message>
    <message>
        <source>Filter not applied: %1</source>
        <translation>Filtro no aplicado: %1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>A&amp;ctualizar</translation>
    </message>
    <message>
        <source>&amp;Filter jobs</source>
        <translation>&amp;Filtrar trabajos</translation>
    </message>
    <message>
        <source>&amp;Job</source>
        <translation>&amp;Trabajo</translation>
    </message>
    <message>
        <source>&amp;Describe</source>
        <translation>&amp;Describir</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <source>&amp;About Trainyard</source>
        <translation>&amp;Acerca de Trainyard</translation>
    </message>
    <message>
        <source>About Trainyard</source>
        <translation>Acerca de Trainyard</translation>
    </message>
    <message>
        <source>&lt;b&gt;Trainyard&lt;/b&gt;&lt;p&gt;AI Platform Training&apos;s workflow on your workstation: submit training jobs, watch their replicas and logs.&lt;/p&gt;</source>
        <translation>&lt;b&gt;Trainyard&lt;/b&gt;&lt;p&gt;El flujo de trabajo de AI Platform Training en su estación de trabajo: envíe trabajos de entrenamiento y siga sus réplicas y registros.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>States</source>
        <translation>Estados</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Todos</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>En ejecución</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>En cola</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Completados</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fallidos</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Cancelados</translation>
    </message>
    <message>
        <source>Show %1 jobs (%2)</source>
        <translation>Mostrar trabajos: %1 (%2)</translation>
    </message>
    <message>
        <source>Describe</source>
        <translation>Describir</translation>
    </message>
    <message>
        <source>Submit similar…</source>
        <translation>Enviar uno similar…</translation>
    </message>
    <message>
        <source>Copy job ID</source>
        <translation>Copiar ID del trabajo</translation>
    </message>
    <message>
        <source>Open job directory</source>
        <translation>Abrir directorio del trabajo</translation>
    </message>
    <message>
        <source>Copied %1</source>
        <translation>Copiado %1</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Configuración…</translation>
    </message>
    <message>
        <source>&amp;Submit Job…</source>
        <translation>&amp;Enviar trabajo…</translation>
    </message>
    <message>
        <source>Submit from checkpoint %1</source>
        <translation>Enviar desde el punto de control %1</translation>
    </message>
    <message>
        <source>Removed the unused checkpoint copy %1</source>
        <translation>Se eliminó la copia sin usar del punto de control %1</translation>
    </message>
    <message>
        <source>No jobs yet</source>
        <translation>Todavía no hay trabajos</translation>
    </message>
    <message>
        <source>Trainyard runs AI Platform Training jobs on this workstation: each replica is a process with the service&apos;s TF_CONFIG, --job-dir and logs. Start with the bundled Fashion-MNIST sample (about a minute), bring a gcloud config file, or describe a job step by step.</source>
        <translation>Trainyard ejecuta trabajos de AI Platform Training en esta estación de trabajo: cada réplica es un proceso con el TF_CONFIG, el --job-dir y los registros del servicio. Empiece con el ejemplo Fashion-MNIST incluido (alrededor de un minuto), traiga un archivo de configuración de gcloud o describa un trabajo paso a paso.</translation>
    </message>
    <message>
        <source>&amp;Run the sample</source>
        <translation>E&amp;jecutar el ejemplo</translation>
    </message>
    <message>
        <source>Submits the bundled Fashion-MNIST trainer (trainer.task, BASIC, 2 epochs) with a job dir under your data folder</source>
        <translation>Envía el entrenador Fashion-MNIST incluido (trainer.task, BASIC, 2 épocas) con un directorio del trabajo dentro de su carpeta de datos</translation>
    </message>
    <message>
        <source>&amp;Import a gcloud config file…</source>
        <translation>&amp;Importar un archivo de configuración de gcloud…</translation>
    </message>
    <message>
        <source>Submit a &amp;job… (Ctrl+N)</source>
        <translation>&amp;Enviar un trabajo… (Ctrl+N)</translation>
    </message>
    <message>
        <source>No job matches the filter.</source>
        <translation>Ningún trabajo coincide con el filtro.</translation>
    </message>
    <message>
        <source>&amp;Clear Filter</source>
        <translation>&amp;Borrar filtro</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>&amp;Resumen</translation>
    </message>
    <message>
        <source>&amp;Topology</source>
        <translation>&amp;Topología</translation>
    </message>
    <message>
        <source>&amp;Logs</source>
        <translation>Re&amp;gistros</translation>
    </message>
    <message>
        <source>&amp;Checkpoints</source>
        <translation>&amp;Puntos de control</translation>
    </message>
    <message>
        <source>&amp;Metrics</source>
        <translation>&amp;Métricas</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>Pestaña &amp;siguiente</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>Pestaña &amp;anterior</translation>
    </message>
    <message>
        <source>Submit S&amp;imilar…</source>
        <translation>Enviar uno &amp;similar…</translation>
    </message>
    <message>
        <source>&amp;Import gcloud Config File…</source>
        <translation>&amp;Importar archivo de configuración de gcloud…</translation>
    </message>
    <message>
        <source>&amp;Run the Sample</source>
        <translation>E&amp;jecutar el ejemplo</translation>
    </message>
    <message>
        <source>&amp;Cancel Job…</source>
        <translation>&amp;Cancelar trabajo…</translation>
    </message>
    <message>
        <source>Copy Job &amp;ID</source>
        <translation>C&amp;opiar ID del trabajo</translation>
    </message>
    <message>
        <source>&amp;Open Job Directory</source>
        <translation>&amp;Abrir directorio del trabajo</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>Atajos de &amp;teclado</translation>
    </message>
    <message>
        <source>&amp;Filter Syntax</source>
        <translation>&amp;Sintaxis del filtro</translation>
    </message>
    <message>
        <source>Restored the job draft you kept (%1). Cancel and Discard to start over.</source>
        <translation>Se restauró el borrador del trabajo que conservó (%1). Pulse Cancelar y luego Descartar para empezar de cero.</translation>
    </message>
    <message>
        <source>no job ID yet</source>
        <translation>todavía sin ID de trabajo</translation>
    </message>
    <message>
        <source>Not connected to an executor yet.</source>
        <translation>Todavía no hay conexión con un ejecutor.</translation>
    </message>
    <message>
        <source>Run the sample</source>
        <translation>Ejecutar el ejemplo</translation>
    </message>
    <message>
        <source>The bundled sample trainer was not found (trainyard/trainers/fmnist in the data folders, or resources/trainers/fmnist beside the build).</source>
        <translation>No se encontró el entrenador de ejemplo incluido (trainyard/trainers/fmnist en las carpetas de datos, o resources/trainers/fmnist junto a la compilación).</translation>
    </message>
    <message>
        <source>Submitting the sample job %1…</source>
        <translation>Enviando el trabajo de ejemplo %1…</translation>
    </message>
    <message>
        <source>The sample job was refused: %1</source>
        <translation>Se rechazó el trabajo de ejemplo: %1</translation>
    </message>
    <message>
        <source>Submitted %1: staging the trainer, then training for 2 epochs.</source>
        <translation>Se envió %1: se prepara el entrenador y después se entrena durante 2 épocas.</translation>
    </message>
    <message>
        <source>Import a gcloud Config File</source>
        <translation>Importar un archivo de configuración de gcloud</translation>
    </message>
    <message>
        <source>gcloud config files (*.yaml *.yml *.json);;All files (*)</source>
        <translation>Archivos de configuración de gcloud (*.yaml *.yml *.json);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>%1 does not load: %2</source>
        <translation>No se puede cargar %1: %2</translation>
    </message>
    <message>
        <source>The filter hides %1.</source>
        <translation>El filtro oculta %1.</translation>
    </message>
    <message>
        <source>Quit Trainyard</source>
        <translation>Salir de Trainyard</translation>
    </message>
    <message>
        <source>Jobs not finished: %1. They keep running in the executor after the console quits.</source>
        <translation>Trabajos sin terminar: %1. Seguirán ejecutándose en el ejecutor después de cerrar la consola.</translation>
    </message>
    <message>
        <source>Start the console again, or use trainyardctl jobs list, to see them; trainyardctl jobs cancel stops one.</source>
        <translation>Para verlos, vuelva a iniciar la consola o use trainyardctl jobs list; trainyardctl jobs cancel detiene uno.</translation>
    </message>
    <message>
        <source>Do not ask again</source>
        <translation>No volver a preguntar</translation>
    </message>
    <message>
        <source>F8 / Shift+F8</source>
        <translation>F8 / Mayús+F8</translation>
    </message>
    <message>
        <source>Logs: next / previous error</source>
        <translation>Registros: error siguiente / anterior</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Fin</translation>
    </message>
    <message>
        <source>Logs: follow new lines again</source>
        <translation>Registros: volver a seguir las líneas nuevas</translation>
    </message>
    <message>
        <source>Ctrl+C</source>
        <translation>Ctrl+C</translation>
    </message>
    <message>
        <source>Logs: copy the selected lines</source>
        <translation>Registros: copiar las líneas seleccionadas</translation>
    </message>
    <message>
        <source>Ctrl++ / Ctrl+- / Ctrl+0</source>
        <translation>Ctrl++ / Ctrl+- / Ctrl+0</translation>
    </message>
    <message>
        <source>Topology: zoom in / out / fit</source>
        <translation>Topología: acercar / alejar / ajustar</translation>
    </message>
    <message>
        <source>Ctrl+wheel, drag</source>
        <translation>Ctrl+rueda, arrastrar</translation>
    </message>
    <message>
        <source>Metrics: zoom a chart (double-click resets)</source>
        <translation>Métricas: ampliar un gráfico (doble clic para restablecer)</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Atajos de teclado</translation>
    </message>
    <message>
        <source>Filter Syntax</source>
        <translation>Sintaxis del filtro</translation>
    </message>
    <message>
        <source>&lt;p&gt;The job list&apos;s filter uses the service&apos;s syntax (gcloud ai-platform jobs list --filter):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;field:value&lt;/b&gt; matches a value, &lt;b&gt;value*&lt;/b&gt; a prefix: &lt;tt&gt;jobId:fmnist*&lt;/tt&gt;&lt;/li&gt;&lt;li&gt;&lt;b&gt;field=value&lt;/b&gt; matches exactly: &lt;tt&gt;labels.owner=alice&lt;/tt&gt;&lt;/li&gt;&lt;li&gt;fields: &lt;tt&gt;jobId&lt;/tt&gt;, &lt;tt&gt;state&lt;/tt&gt;, &lt;tt&gt;labels.KEY&lt;/tt&gt;, &lt;tt&gt;createTime&lt;/tt&gt; (also with &amp;lt; &amp;gt; &amp;lt;= &amp;gt;=)&lt;/li&gt;&lt;li&gt;terms are joined with &lt;b&gt;AND&lt;/b&gt;: &lt;tt&gt;jobId:fmnist* AND state:FAILED&lt;/tt&gt;&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Ctrl+F goes to the filter; Alt+1…6 show all, running, queued, succeeded, failed or cancelled jobs.&lt;/p&gt;</source>
        <translation>&lt;p&gt;El filtro de la lista de trabajos usa la sintaxis del servicio (gcloud ai-platform jobs list --filter):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;&lt;b&gt;campo:valor&lt;/b&gt; coincide con un valor, &lt;b&gt;valor*&lt;/b&gt; con un prefijo: &lt;tt&gt;jobId:fmnist*&lt;/tt&gt;&lt;/li&gt;&lt;li&gt;&lt;b&gt;campo=valor&lt;/b&gt; coincide exactamente: &lt;tt&gt;labels.owner=alice&lt;/tt&gt;&lt;/li&gt;&lt;li&gt;campos: &lt;tt&gt;jobId&lt;/tt&gt;, &lt;tt&gt;state&lt;/tt&gt;, &lt;tt&gt;labels.KEY&lt;/tt&gt;, &lt;tt&gt;createTime&lt;/tt&gt; (también con &amp;lt; &amp;gt; &amp;lt;= &amp;gt;=)&lt;/li&gt;&lt;li&gt;los términos se unen con &lt;b&gt;AND&lt;/b&gt;: &lt;tt&gt;jobId:fmnist* AND state:FAILED&lt;/tt&gt;&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Ctrl+F lleva al filtro; Alt+1…6 muestran los trabajos: todos, en ejecución, en cola, completados, fallidos o cancelados.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>T&amp;rials</source>
        <translation>Pr&amp;uebas</translation>
    </message>
    <message>
        <source>Drag / click on an axis, Esc</source>
        <translation>Arrastrar / clic en un eje, Esc</translation>
    </message>
    <message>
        <source>Trials: filter by an interval of an axis / clear it / clear all</source>
        <translation>Pruebas: filtrar por un intervalo de un eje / quitarlo / quitar todos</translation>
    </message>
    <message>
        <source>Submit with a trial&apos;s values</source>
        <translation>Enviar con los valores de una prueba</translation>
    </message>
    <message>
        <source>Resume tuning</source>
        <translation>Reanudar el ajuste</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>Clústeres</translation>
    </message>
    <message>
        <source>Connecting to %1; the token is in the desktop keyring.</source>
        <translation>Conectando con %1; el token está en el llavero del escritorio.</translation>
    </message>
    <message>
        <source>Connecting to %1; the token is kept for this session only.</source>
        <translation>Conectando con %1; el token se conserva solo durante esta sesión.</translation>
    </message>
    <message>
        <source>&amp;Connect to Executor…</source>
        <translation>&amp;Conectar con el ejecutor…</translation>
    </message>
    <message>
        <source>Use the &amp;Local Executor</source>
        <translation>Usar el ejecutor &amp;local</translation>
    </message>
    <message>
        <source>C&amp;lusters</source>
        <translation>C&amp;lústeres</translation>
    </message>
    <message>
        <source>&amp;Audit Log</source>
        <translation>Registro de au&amp;ditoría</translation>
    </message>
    <message numerus="yes">
        <source>%n jobs selected: Metrics compares them; the other tabs show %1.</source>
        <translation>
            <numerusform>%n trabajo seleccionado: la pestaña Métricas lo compara; las demás muestran %1.</numerusform>
            <numerusform>%n trabajos seleccionados: la pestaña Métricas los compara; las demás muestran %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n jobs selected: the tabs show %1.</source>
        <translation>
            <numerusform>%n trabajo seleccionado: las pestañas muestran %1.</numerusform>
            <numerusform>%n trabajos seleccionados: las pestañas muestran %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Selected: %1</source>
        <translation>Seleccionados: %1</translation>
    </message>
    <message>
        <source>Mo&amp;del</source>
        <translation>M&amp;odelo</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelos</translation>
    </message>
    <message>
        <source>Deplo&amp;y Model…</source>
        <translation>Desp&amp;legar modelo…</translation>
    </message>
    <message>
        <source>Mod&amp;els</source>
        <translation>Mod&amp;elos</translation>
    </message>
    <message>
        <source>Pred&amp;ictions</source>
        <translation>Pred&amp;icciones</translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricChart</name>
    <message>
        <source>CPU (% of one core)</source>
        <translation>CPU (% de un núcleo)</translation>
    </message>
    <message>
        <source>Memory (RSS, MiB)</source>
        <translation>Memoria (RSS, MiB)</translation>
    </message>
    <message>
        <source>GPU utilization (% of one GPU)</source>
        <translation>Uso de GPU (% de una GPU)</translation>
    </message>
    <message>
        <source>GPU memory (MiB)</source>
        <translation>Memoria de GPU (MiB)</translation>
    </message>
    <message>
        <source>%1 (hypertune)</source>
        <translation>%1 (hypertune)</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Hora del reloj</translation>
    </message>
    <message>
        <source>Relative time (s)</source>
        <translation>Tiempo relativo (s)</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Smoothed</source>
        <translation>Suavizado</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Hora</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>Relativo</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>No se pudo escribir %1.</translation>
    </message>
    <message>
        <source>SVG export needs Qt SVG, which this build does not have.</source>
        <translation>Exportar a SVG requiere Qt SVG, que esta compilación no incluye.</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Restablecer zoom</translation>
    </message>
    <message>
        <source>Export chart as PNG…</source>
        <translation>Exportar gráfico como PNG…</translation>
    </message>
    <message>
        <source>Export chart as SVG…</source>
        <translation>Exportar gráfico como SVG…</translation>
    </message>
    <message>
        <source>This build has no Qt SVG.</source>
        <translation>Esta compilación no incluye Qt SVG.</translation>
    </message>
    <message>
        <source>Export data as CSV</source>
        <translation>Exportar datos como CSV</translation>
    </message>
    <message>
        <source>Export data as JSON</source>
        <translation>Exportar datos como JSON</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… y %n serie más</numerusform>
            <numerusform>… y %n series más</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricRunsModel</name>
    <message numerus="yes">
        <source>%1: %n chart(s)</source>
        <translation>
            <numerusform>%1: %n gráfico</numerusform>
            <numerusform>%1: %n gráficos</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricsModel</name>
    <message>
        <source>trial %1</source>
        <translation>prueba %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::MetricsPanel</name>
    <message>
        <source>Log scale</source>
        <translation>Escala logarítmica</translation>
    </message>
    <message>
        <source>Ignore outliers</source>
        <translation>Ignorar valores atípicos</translation>
    </message>
    <message>
        <source>Filter tags (regular expression)</source>
        <translation>Filtrar etiquetas (expresión regular)</translation>
    </message>
    <message>
        <source>Show only the charts whose tag matches this regular expression (case-insensitive)</source>
        <translation>Mostrar solo los gráficos cuya etiqueta coincide con esta expresión regular (sin distinguir mayúsculas y minúsculas)</translation>
    </message>
    <message>
        <source>TensorBoard&apos;s smoothing: a debiased exponential moving average</source>
        <translation>El suavizado de TensorBoard: una media móvil exponencial con corrección de sesgo</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Paso</translation>
    </message>
    <message>
        <source>Relative time</source>
        <translation>Tiempo relativo</translation>
    </message>
    <message>
        <source>Wall time</source>
        <translation>Hora del reloj</translation>
    </message>
    <message>
        <source>Logarithmic y axis (values ≤ 0 are not drawn)</source>
        <translation>Eje Y logarítmico (los valores ≤ 0 no se dibujan)</translation>
    </message>
    <message>
        <source>Scale the y axis to the 5th–95th percentile of the values</source>
        <translation>Ajustar el eje Y a los percentiles 5 a 95 de los valores</translation>
    </message>
    <message>
        <source>Smoothing</source>
        <translation>Suavizado</translation>
    </message>
    <message>
        <source>X axis</source>
        <translation>Eje X</translation>
    </message>
    <message>
        <source>No metrics yet. Scalars of event files (tfevents) under the job directory, hypertune reports and each replica&apos;s CPU, memory and GPU use appear here while the job runs.</source>
        <translation>Todavía no hay métricas. Los escalares de los archivos de eventos (tfevents) del directorio del trabajo, los informes de hypertune y el uso de CPU, memoria y GPU de cada réplica aparecen aquí mientras el trabajo se ejecuta.</translation>
    </message>
    <message>
        <source>Resources</source>
        <translation>Recursos</translation>
    </message>
    <message>
        <source>Hypertune reports</source>
        <translation>Informes de hypertune</translation>
    </message>
    <message numerus="yes">
        <source>%n series</source>
        <translation>
            <numerusform>%n serie</numerusform>
            <numerusform>%n series</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n charts</source>
        <translation>
            <numerusform>%n gráfico</numerusform>
            <numerusform>%n gráficos</numerusform>
        </translation>
    </message>
    <message>
        <source>Not a valid regular expression: %1</source>
        <translation>Expresión regular no válida: %1</translation>
    </message>
    <message>
        <source>No chart %1.</source>
        <translation>No hay ningún gráfico %1.</translation>
    </message>
    <message>
        <source>No series %1.</source>
        <translation>No hay ninguna serie %1.</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>No se pudo escribir %1: %2</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>Archivos JSON (*.json)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>Archivos CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>Exportar datos</translation>
    </message>
    <message>
        <source>Exported %1.</source>
        <translation>Exportado %1.</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>Imágenes SVG (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>Imágenes PNG (*.png)</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Exportar gráfico</translation>
    </message>
    <message>
        <source>This job recorded no metrics: no event files (tfevents) under its job directory, no hypertune reports and no resource samples of its replicas.</source>
        <translation>Este trabajo no registró métricas: ningún archivo de eventos (tfevents) en su directorio del trabajo, ningún informe de hypertune y ninguna muestra de recursos de sus réplicas.</translation>
    </message>
    <message>
        <source>Comparing with %1 (Ctrl+click jobs in the list to add or remove)</source>
        <translation>Comparando con %1 (Ctrl+clic en la lista de trabajos para añadir o quitar)</translation>
    </message>
    <message>
        <source>All runs</source>
        <translation>Todas las ejecuciones</translation>
    </message>
    <message>
        <source>Filter runs (regular expression)</source>
        <translation>Filtrar ejecuciones (expresión regular)</translation>
    </message>
    <message>
        <source>Draw only the runs whose name matches this regular expression (case-insensitive)</source>
        <translation>Dibujar solo las ejecuciones cuyo nombre coincide con esta expresión regular (sin distinguir mayúsculas)</translation>
    </message>
    <message>
        <source>Check or uncheck every run the filter lists</source>
        <translation>Marcar o desmarcar todas las ejecuciones que lista el filtro</translation>
    </message>
    <message>
        <source>Uncheck a run to hide its lines in every chart</source>
        <translation>Desmarque una ejecución para ocultar sus líneas en todos los gráficos</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Ejecuciones</translation>
    </message>
    <message>
        <source>All runs (%1 of %2 drawn)</source>
        <translation>Todas las ejecuciones (%1 de %2 dibujadas)</translation>
    </message>
</context>
<context>
    <name>Trainyard::ModelPanel</name>
    <message>
        <source>Rows: the true class; columns: the predicted class</source>
        <translation>Filas: la clase real; columnas: la clase predicha</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Archivo</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
    <message>
        <source>The model folder</source>
        <translation>La carpeta del modelo</translation>
    </message>
    <message>
        <source>The model appears here when the job has succeeded.</source>
        <translation>El modelo aparece aquí cuando el trabajo se ha completado correctamente.</translation>
    </message>
    <message>
        <source>The model could not be read: %1</source>
        <translation>No se pudo leer el modelo: %1</translation>
    </message>
    <message>
        <source>the test split</source>
        <translation>el conjunto de prueba</translation>
    </message>
    <message>
        <source>the validation split</source>
        <translation>el conjunto de validación</translation>
    </message>
    <message numerus="yes">
        <source>%1 (framework %2), measured on %3 (%n row(s)). Model folder: %4</source>
        <extracomment>%1 the algorithm, %2 the framework, %3 &quot;the test split&quot;, %n its rows, %4 the model folder.</extracomment>
        <translation>
            <numerusform>%1 (framework %2), medido en %3 (%n fila). Carpeta del modelo: %4</numerusform>
            <numerusform>%1 (framework %2), medido en %3 (%n filas). Carpeta del modelo: %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trial %1: %2 (framework %3), measured on %4 (%n row(s)). Model folder: %5</source>
        <extracomment>%1 the trial, %2 the algorithm, %3 the framework, %4 &quot;the test split&quot;, %5 the model folder.</extracomment>
        <translation>
            <numerusform>Prueba %1: %2 (framework %3), medido en %4 (%n fila). Carpeta del modelo: %5</numerusform>
            <numerusform>Prueba %1: %2 (framework %3), medido en %4 (%n filas). Carpeta del modelo: %5</numerusform>
        </translation>
    </message>
    <message>
        <source>Predicted against actual</source>
        <translation>Predicho frente a real</translation>
    </message>
    <message>
        <source>actual</source>
        <translation>real</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>predicho</translation>
    </message>
    <message numerus="yes">
        <source>Predicted against actual (%n point(s); mean |residual| %1)</source>
        <extracomment>%1 the mean absolute residual, %n the points drawn.</extracomment>
        <translation>
            <numerusform>Predicho frente a real (%n punto; |residuo| medio %1)</numerusform>
            <numerusform>Predicho frente a real (%n puntos; |residuo| medio %1)</numerusform>
        </translation>
    </message>
    <message>
        <source>total gain</source>
        <translation>ganancia total</translation>
    </message>
    <message>
        <source>Feature importance (total gain)</source>
        <translation>Importancia de las características (ganancia total)</translation>
    </message>
    <message>
        <source>XGBoost&apos;s total gain of the splits on each CSV column&apos;s features (a categorical column&apos;s one-hot features added up), the 15 largest</source>
        <translation>La ganancia total de XGBoost de las divisiones sobre las características de cada columna del CSV (sumando las características one-hot de una columna categórica), las 15 mayores</translation>
    </message>
    <message>
        <source>Confusion matrix: rows are the actual class, columns the predicted class</source>
        <translation>Matriz de confusión: las filas son la clase real, las columnas la clase predicha</translation>
    </message>
    <message>
        <source>No model: the job failed (%1). The Overview tab has the error, and Logs the replica&apos;s lines.</source>
        <translation>Sin modelo: el trabajo falló (%1). La pestaña Resumen tiene el error, y Registros las líneas de la réplica.</translation>
    </message>
    <message>
        <source>No model: the job was cancelled before it trained one.</source>
        <translation>Sin modelo: el trabajo se canceló antes de entrenar uno.</translation>
    </message>
    <message>
        <source>share of total gain</source>
        <translation>proporción de la ganancia total</translation>
    </message>
    <message>
        <source>share of mean |attribution|</source>
        <translation>proporción de la |atribución| media</translation>
    </message>
    <message>
        <source>Feature importance</source>
        <translation>Importancia de las variables</translation>
    </message>
    <message>
        <source>XGBoost&apos;s total gain of the splits on each CSV column&apos;s features, and %1 (a categorical column&apos;s one-hot features added up), each as a share of its sum; the 10 columns with the most gain</source>
        <translation>La ganancia total de las divisiones de XGBoost en las variables de cada columna del CSV y %1 (sumadas las variables one-hot de una columna categórica), cada una como proporción de su suma; las 10 columnas con más ganancia</translation>
    </message>
</context>
<context>
    <name>Trainyard::ModelsView</name>
    <message>
        <source>&amp;New Model…</source>
        <translation>&amp;Nuevo modelo…</translation>
    </message>
    <message>
        <source>&amp;Deploy…</source>
        <translation>&amp;Desplegar…</translation>
    </message>
    <message>
        <source>Set De&amp;fault</source>
        <translation>&amp;Predeterminar</translation>
    </message>
    <message>
        <source>De&amp;lete…</source>
        <translation>E&amp;liminar…</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Actualizar</translation>
    </message>
    <message>
        <source>&amp;Predict</source>
        <translation>P&amp;redecir</translation>
    </message>
    <message>
        <source>One instance per line: a JSON value ([1.5, 2.0, …]), or a CSV row of the training table for a built-in algorithm&apos;s model</source>
        <translation>Una instancia por línea: un valor JSON ([1.5, 2.0, …]) o, para el modelo de un algoritmo integrado, una fila CSV de la tabla de entrenamiento</translation>
    </message>
    <message>
        <source>Predict</source>
        <translation>Predecir</translation>
    </message>
    <message>
        <source>Could not read the models: %1</source>
        <translation>No se pudieron leer los modelos: %1</translation>
    </message>
    <message>
        <source>Updated %1</source>
        <translation>Actualizado %1</translation>
    </message>
    <message>
        <source>Version %1 of %2 (%3)</source>
        <translation>Versión %1 de %2 (%3)</translation>
    </message>
    <message>
        <source>Model %1: its default version, %2</source>
        <translation>Modelo %1: su versión predeterminada, %2</translation>
    </message>
    <message>
        <source>Model %1 has no version yet: deploy one.</source>
        <translation>El modelo %1 aún no tiene versiones: despliegue una.</translation>
    </message>
    <message>
        <source>Select a model or a version to predict with.</source>
        <translation>Seleccione un modelo o una versión con la que predecir.</translation>
    </message>
    <message>
        <source>New Model</source>
        <translation>Nuevo modelo</translation>
    </message>
    <message>
        <source>Name (a letter first, then letters, digits and underscores):</source>
        <translation>Nombre (primero una letra, después letras, dígitos y guiones bajos):</translation>
    </message>
    <message>
        <source>Could not create model %1: %2</source>
        <translation>No se pudo crear el modelo %1: %2</translation>
    </message>
    <message>
        <source>Deploy</source>
        <translation>Desplegar</translation>
    </message>
    <message>
        <source>Could not deploy version %1 of %2: %3</source>
        <translation>No se pudo desplegar la versión %1 de %2: %3</translation>
    </message>
    <message>
        <source>Deploying version %1 of %2…</source>
        <translation>Desplegando la versión %1 de %2…</translation>
    </message>
    <message>
        <source>Set Default</source>
        <translation>Establecer como predeterminada</translation>
    </message>
    <message>
        <source>Could not make %1 the default: %2</source>
        <translation>No se pudo hacer predeterminada a %1: %2</translation>
    </message>
    <message>
        <source>version %1 of model %2</source>
        <translation>la versión %1 del modelo %2</translation>
    </message>
    <message>
        <source>model %1</source>
        <translation>el modelo %1</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <source>Delete %1? Its prediction nodes stop and its copy of the files is removed.</source>
        <translation>¿Eliminar %1? Sus nodos de predicción se detienen y se borra su copia de los archivos.</translation>
    </message>
    <message>
        <source>Delete %1? A model with versions cannot be deleted.</source>
        <translation>¿Eliminar %1? Un modelo con versiones no se puede eliminar.</translation>
    </message>
    <message>
        <source>Could not delete %1: %2</source>
        <translation>No se pudo eliminar %1: %2</translation>
    </message>
    <message>
        <source>Type at least one instance.</source>
        <translation>Escriba al menos una instancia.</translation>
    </message>
    <message>
        <source>Predicting…</source>
        <translation>Prediciendo…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Error: %1</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>Predicción</translation>
    </message>
    <message>
        <source>P(%1)</source>
        <translation>P(%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n prediction(s) in %1 ms</source>
        <translation>
            <numerusform>%n predicción en %1 ms</numerusform>
            <numerusform>%n predicciones en %1 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a version to see its log: its nodes&apos; starts, exits and output, and each request when the model logs predictions.</source>
        <translation>Seleccione una versión para ver su registro: los inicios, finales y salida de sus nodos, y cada solicitud cuando el modelo registra predicciones.</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Registro</translation>
    </message>
    <message>
        <source>Could not read the log: %1</source>
        <translation>No se pudo leer el registro: %1</translation>
    </message>
    <message>
        <source>class %1 (%2)</source>
        <translation>clase %1 (%2)</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>Gráficos</translation>
    </message>
    <message>
        <source>&amp;Add as Instance</source>
        <translation>&amp;Añadir como instancia</translation>
    </message>
    <message>
        <source>Append the form&apos;s values to the instances as one row (an empty field: a missing value)</source>
        <translation>Añadir los valores del formulario a las instancias como una fila (un campo vacío: un valor ausente)</translation>
    </message>
    <message>
        <source>mean %1</source>
        <extracomment>The field of a numeric column: %1 is the training data&apos;s mean, used when the field is empty.</extracomment>
        <translation>media %1</translation>
    </message>
    <message>
        <source>(not used by the model)</source>
        <translation>(el modelo no la usa)</translation>
    </message>
    <message>
        <source>Column %1 (%2):</source>
        <extracomment>A form row&apos;s label: %1 is the column&apos;s number in the training CSV (the target is column 1), %2 its type.</extracomment>
        <translation>Columna %1 (%2):</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Detalles</translation>
    </message>
    <message>
        <source>E&amp;xplain</source>
        <translation>E&amp;xplicar</translation>
    </message>
    <message>
        <source>Select a version to explain its predictions.</source>
        <translation>Seleccione una versión para explicar sus predicciones.</translation>
    </message>
    <message>
        <source>Explain the instances with %1: each feature&apos;s share of the prediction</source>
        <translation>Explicar las instancias con %1: la parte de cada variable en la predicción</translation>
    </message>
    <message>
        <source>Version %1 has no explanation method: deploy a version with one (Deploy…, Explanations) to explain its predictions.</source>
        <translation>La versión %1 no tiene método de explicación: despliegue una versión con uno (Desplegar…, Explicaciones) para explicar sus predicciones.</translation>
    </message>
    <message>
        <source>Explaining…</source>
        <translation>Explicando…</translation>
    </message>
    <message>
        <source>Explanation failed: %1</source>
        <translation>La explicación falló: %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::ParallelCoordinates</name>
    <message>
        <source>Parallel coordinates of the trials</source>
        <translation>Coordenadas paralelas de las pruebas</translation>
    </message>
    <message>
        <source>One vertical axis per hyperparameter and one for the objective; each trial is a line through its values. Drag along an axis to filter, click an axis to clear its filter, Escape clears every filter.</source>
        <translation>Un eje vertical por hiperparámetro y otro para el objetivo; cada prueba es una línea que pasa por sus valores. Arrastre a lo largo de un eje para filtrar, haga clic en un eje para quitar su filtro; Escape quita todos los filtros.</translation>
    </message>
    <message>
        <source>log scale</source>
        <translation>escala log.</translation>
    </message>
    <message>
        <source>reverse log</source>
        <translation>log. inversa</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Objetivo</translation>
    </message>
    <message>
        <source>↑ maximize</source>
        <translation>↑ maximizar</translation>
    </message>
    <message>
        <source>↓ minimize</source>
        <translation>↓ minimizar</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>aún ninguno</translation>
    </message>
    <message>
        <source>%1 (step %2)</source>
        <translation>%1 (paso %2)</translation>
    </message>
    <message>
        <source>Trial %1 — %2</source>
        <translation>Prueba %1 — %2</translation>
    </message>
    <message>
        <source>This job has no hyperparameters to plot.</source>
        <translation>Este trabajo no tiene hiperparámetros que dibujar.</translation>
    </message>
    <message>
        <source>colour: %1 (viridis)</source>
        <translation>color: %1 (viridis)</translation>
    </message>
    <message>
        <source>filtered out</source>
        <translation>filtradas</translation>
    </message>
    <message>
        <source>no objective yet</source>
        <translation>aún sin objetivo</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n trials pass the filters</source>
        <translation>
            <numerusform>%1 de %n prueba pasa los filtros</numerusform>
            <numerusform>%1 de %n pruebas pasan los filtros</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trials</source>
        <translation>
            <numerusform>%n prueba</numerusform>
            <numerusform>%n pruebas</numerusform>
        </translation>
    </message>
    <message>
        <source>Drag to brush another interval of %1; click to clear its filter</source>
        <translation>Arrastre para marcar otro intervalo de %1; haga clic para quitar su filtro</translation>
    </message>
    <message>
        <source>Drag along %1 to keep only the trials in an interval</source>
        <translation>Arrastre a lo largo de %1 para quedarse solo con las pruebas de un intervalo</translation>
    </message>
</context>
<context>
    <name>Trainyard::ReplicaModel</name>
    <message>
        <source>signal %1 (SIG%2)</source>
        <translation>señal %1 (SIG%2)</translation>
    </message>
    <message>
        <source>signal %1</source>
        <translation>señal %1</translation>
    </message>
    <message>
        <source>exit %1</source>
        <translation>salida %1</translation>
    </message>
    <message>
        <source>PID %1, address %2</source>
        <translation>PID %1, dirección %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Tarea</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Dirección</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation>Reinicios</translation>
    </message>
    <message>
        <source>Exit status</source>
        <translation>Estado de salida</translation>
    </message>
</context>
<context>
    <name>Trainyard::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Configuración</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Idioma:</translation>
    </message>
    <message>
        <source>System default (%1)</source>
        <translation>Predeterminado del sistema (%1)</translation>
    </message>
    <message>
        <source>The language of the console. &quot;System default&quot; follows the desktop&apos;s language settings (LANGUAGE, LC_MESSAGES, LANG).</source>
        <translation>El idioma de la consola. «Predeterminado del sistema» sigue la configuración de idioma del escritorio (LANGUAGE, LC_MESSAGES, LANG).</translation>
    </message>
    <message>
        <source>The new language applies to windows opened from now on; restart Trainyard to see it everywhere.</source>
        <translation>El nuevo idioma se aplica a las ventanas que se abran a partir de ahora; reinicie Trainyard para verlo en todas partes.</translation>
    </message>
</context>
<context>
    <name>Trainyard::State</name>
    <message>
        <source>Queued</source>
        <translation>En cola</translation>
    </message>
    <message>
        <source>Preparing</source>
        <translation>Preparando</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>En ejecución</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Completado</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fallido</translation>
    </message>
    <message>
        <source>Cancelling</source>
        <translation>Cancelando</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Cancelado</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Pendiente</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>Iniciando</translation>
    </message>
    <message>
        <source>Restarting</source>
        <translation>Reiniciando</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Detenido</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Desconocido</translation>
    </message>
</context>
<context>
    <name>Trainyard::SubmitWizard</name>
    <message>
        <source>Submit Training Job</source>
        <translation>Enviar trabajo de entrenamiento</translation>
    </message>
    <message>
        <source>&amp;Submit</source>
        <translation>&amp;Enviar</translation>
    </message>
    <message>
        <source>No executor is connected.</source>
        <translation>No hay ningún ejecutor conectado.</translation>
    </message>
    <message>
        <source>Close the Submit Job Wizard?</source>
        <translation>¿Cerrar el asistente de envío de trabajos?</translation>
    </message>
    <message>
        <source>The job you filled in has not been submitted.</source>
        <translation>El trabajo que ha rellenado no se ha enviado.</translation>
    </message>
    <message>
        <source>Keep it as a draft to continue with the next Submit Job…, or discard it.</source>
        <translation>Consérvelo como borrador para continuar con el próximo «Enviar trabajo…», o descártelo.</translation>
    </message>
    <message>
        <source>&amp;Keep Draft</source>
        <translation>&amp;Conservar borrador</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>&amp;Descartar</translation>
    </message>
    <message>
        <source>Continue &amp;Editing</source>
        <translation>Seguir &amp;editando</translation>
    </message>
    <message>
        <source>%1 — Step %2 of %3</source>
        <extracomment>%1 is the wizard&apos;s title (&quot;Submit Training Job&quot;, &quot;Submit from checkpoint …&quot;).</extracomment>
        <translation>%1 — Paso %2 de %3</translation>
    </message>
    <message>
        <source>scale tier %1</source>
        <translation>nivel de escala %1</translation>
    </message>
    <message>
        <source>master %1</source>
        <translation>maestro %1</translation>
    </message>
    <message numerus="yes">
        <source>%n worker(s)</source>
        <translation>
            <numerusform>%n trabajador</numerusform>
            <numerusform>%n trabajadores</numerusform>
        </translation>
    </message>
    <message>
        <source>module %1</source>
        <translation>módulo %1</translation>
    </message>
    <message numerus="yes">
        <source>%n argument(s)</source>
        <translation>
            <numerusform>%n argumento</numerusform>
            <numerusform>%n argumentos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>tuning: %1 trials of %n hyperparameter(s)</source>
        <translation>
            <numerusform>ajuste: %1 pruebas con %n hiperparámetro</numerusform>
            <numerusform>ajuste: %1 pruebas con %n hiperparámetros</numerusform>
        </translation>
    </message>
    <message>
        <source>region %1</source>
        <translation>región %1</translation>
    </message>
    <message>
        <source>runtime %1</source>
        <translation>entorno de ejecución %1</translation>
    </message>
    <message>
        <source>job dir</source>
        <translation>directorio del trabajo</translation>
    </message>
    <message>
        <source>Imported %1.</source>
        <translation>Se importó %1.</translation>
    </message>
    <message>
        <source>Imported %1: %2.</source>
        <translation>Se importó %1: %2.</translation>
    </message>
    <message>
        <source>The package is the folder it is in, %1: change it on the next page if not.</source>
        <translation>El paquete es la carpeta en la que se encuentra, %1: cámbielo en la página siguiente si no es así.</translation>
    </message>
    <message>
        <source>Submit Batch Prediction Job</source>
        <translation>Enviar trabajo de predicción por lotes</translation>
    </message>
</context>
<context>
    <name>Trainyard::TensorTableModel</name>
    <message>
        <source>%1
Stored as %2</source>
        <translation>%1
Guardado como %2</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>Tensor</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Forma</translation>
    </message>
    <message>
        <source>Elements</source>
        <translation>Elementos</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Tamaño</translation>
    </message>
</context>
<context>
    <name>Trainyard::TopologyView</name>
    <message>
        <source>no GPU</source>
        <translation>sin GPU</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message numerus="yes">
        <source>%n restart(s)</source>
        <translation>
            <numerusform>%n reinicio</numerusform>
            <numerusform>%n reinicios</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
PID: %2
Address: %3
Machine type: %4</source>
        <translation>%1
PID: %2
Dirección: %3
Tipo de máquina: %4</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ninguno</translation>
    </message>
    <message>
        <source>Evaluators (not part of the cluster)</source>
        <translation>Evaluadores (fuera del clúster)</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>up %1</source>
        <translation>activa desde hace %1</translation>
    </message>
    <message>
        <source>CPU %1 %</source>
        <translation>CPU %1 %</translation>
    </message>
    <message>
        <source>on %1</source>
        <translation>en %1</translation>
    </message>
    <message>
        <source>Node: %1</source>
        <translation>Nodo: %1</translation>
    </message>
</context>
<context>
    <name>Trainyard::TrainedModel</name>
    <message>
        <source>column %1</source>
        <extracomment>A CSV column by its 1-based position (the target is column 1).</extracomment>
        <translation>columna %1</translation>
    </message>
    <message>
        <source>%1 · categorical (%2)</source>
        <translation>%1 · categórica (%2)</translation>
    </message>
    <message>
        <source>%1 · categorical</source>
        <translation>%1 · categórica</translation>
    </message>
    <message>
        <source>%1 · numeric</source>
        <translation>%1 · numérica</translation>
    </message>
</context>
<context>
    <name>Trainyard::TrialsModel</name>
    <message>
        <source>Yes</source>
        <translation>Sí</translation>
    </message>
    <message>
        <source>The best trial so far (highest objective)</source>
        <translation>La mejor prueba hasta ahora (objetivo más alto)</translation>
    </message>
    <message>
        <source>The best trial so far (lowest objective)</source>
        <translation>La mejor prueba hasta ahora (objetivo más bajo)</translation>
    </message>
    <message>
        <source>Stopped early by the tuning service&apos;s automated early stopping</source>
        <translation>Detenida antes de tiempo por la detención anticipada automática del servicio de ajuste</translation>
    </message>
    <message>
        <source>Hyperparameter %1 (%2)</source>
        <translation>Hiperparámetro %1 (%2)</translation>
    </message>
    <message>
        <source>The objective the tuning maximizes</source>
        <translation>El objetivo que el ajuste maximiza</translation>
    </message>
    <message>
        <source>The objective the tuning minimizes</source>
        <translation>El objetivo que el ajuste minimiza</translation>
    </message>
    <message>
        <source>The training step at which the objective was reported</source>
        <translation>El paso de entrenamiento en el que se informó el objetivo</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Prueba</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Estado</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Objetivo</translation>
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
        <translation>Paso</translation>
    </message>
    <message>
        <source>Stopped early</source>
        <translation>Detenida antes</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Duración</translation>
    </message>
    <message>
        <source>%1: the latest value the trial reported; its final metric comes when it ends</source>
        <translation>%1: el último valor del que informó la prueba; su métrica final llega cuando termina</translation>
    </message>
    <message>
        <source>%1: the trial&apos;s final metric</source>
        <translation>%1: la métrica final de la prueba</translation>
    </message>
</context>
<context>
    <name>Trainyard::TrialsPanel</name>
    <message>
        <source>&amp;Submit with these values…</source>
        <translation>&amp;Enviar con estos valores…</translation>
    </message>
    <message>
        <source>&amp;Resume tuning…</source>
        <translation>&amp;Reanudar el ajuste…</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>Mostrar:</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>En ejecución</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Completadas</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fallidas</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Canceladas</translation>
    </message>
    <message>
        <source>Show the trials that are queued, preparing or running</source>
        <translation>Mostrar las pruebas en cola, en preparación o en ejecución</translation>
    </message>
    <message>
        <source>Show the trials that succeeded</source>
        <translation>Mostrar las pruebas completadas</translation>
    </message>
    <message>
        <source>Show the trials that failed</source>
        <translation>Mostrar las pruebas fallidas</translation>
    </message>
    <message>
        <source>Show the trials that were cancelled (or are being cancelled)</source>
        <translation>Mostrar las pruebas canceladas (o que se están cancelando)</translation>
    </message>
    <message>
        <source>&amp;Top</source>
        <translation>&amp;Mejores</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Keep only the best trials by the objective (100 %: every trial)</source>
        <translation>Quedarse solo con las mejores pruebas según el objetivo (100 %: todas)</translation>
    </message>
    <message>
        <source>Top percent of trials by objective</source>
        <translation>Porcentaje de las mejores pruebas según el objetivo</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>Quitar filtros</translation>
    </message>
    <message>
        <source>Remove every brush and the top-k % filter (Escape in the plot clears the brushes)</source>
        <translation>Quitar todas las selecciones de los ejes y el filtro de las mejores k % (Escape en el gráfico quita las selecciones)</translation>
    </message>
    <message>
        <source>Drag along an axis to filter the trials; click the axis to clear it.</source>
        <translation>Arrastre a lo largo de un eje para filtrar las pruebas; haga clic en el eje para quitar el filtro.</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Pruebas</translation>
    </message>
    <message>
        <source>Open the submit wizard with this job, without tuning, and the selected trial&apos;s hyperparameters as fixed arguments</source>
        <translation>Abrir el asistente de envío con este trabajo, sin ajuste, y los hiperparámetros de la prueba seleccionada como argumentos fijos</translation>
    </message>
    <message>
        <source>Open the submit wizard with a new tuning job that continues this one&apos;s study (resumePreviousJobId)</source>
        <translation>Abrir el asistente de envío con un nuevo trabajo de ajuste que continúa el estudio de este (resumePreviousJobId)</translation>
    </message>
    <message>
        <source>The hyperparameter on the scatter&apos;s x axis</source>
        <translation>El hiperparámetro del eje x del gráfico de dispersión</translation>
    </message>
    <message>
        <source>Parameter of the scatter plot</source>
        <translation>Parámetro del gráfico de dispersión</translation>
    </message>
    <message>
        <source>Objective &amp;against</source>
        <translation>Objetivo &amp;frente a</translation>
    </message>
    <message>
        <source>Objective against a parameter</source>
        <translation>Objetivo frente a un parámetro</translation>
    </message>
    <message>
        <source>Filtered out</source>
        <translation>Filtradas</translation>
    </message>
    <message>
        <source>Best trial</source>
        <translation>Mejor prueba</translation>
    </message>
    <message>
        <source>Best objective so far</source>
        <translation>Mejor objetivo hasta ahora</translation>
    </message>
    <message>
        <source>Best objective so far, by trial number</source>
        <translation>Mejor objetivo hasta ahora, por número de prueba</translation>
    </message>
    <message>
        <source>Trial&apos;s objective</source>
        <translation>Objetivo de la prueba</translation>
    </message>
    <message>
        <source>Best so far</source>
        <translation>Mejor hasta ahora</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Prueba</translation>
    </message>
    <message>
        <source>The job can be resumed once it has ended</source>
        <translation>El trabajo se puede reanudar cuando haya terminado</translation>
    </message>
    <message>
        <source>No trials yet: they appear here as the tuning service starts them.</source>
        <translation>Aún no hay pruebas: aparecen aquí a medida que el servicio de ajuste las inicia.</translation>
    </message>
    <message numerus="yes">
        <source>%n trials</source>
        <translation>
            <numerusform>%n prueba</numerusform>
            <numerusform>%n pruebas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ended</source>
        <translation>
            <numerusform>%n terminada</numerusform>
            <numerusform>%n terminadas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n planned</source>
        <translation>
            <numerusform>%n prevista</numerusform>
            <numerusform>%n previstas</numerusform>
        </translation>
    </message>
    <message>
        <source>best: trial %1 (%2)</source>
        <translation>mejor: prueba %1 (%2)</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Objetivo</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copiar</translation>
    </message>
    <message>
        <source>Intermediate values</source>
        <translation>Valores intermedios</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>Importancia</translation>
    </message>
</context>
<context>
    <name>Trainyard::VersionChartsPanel</name>
    <message>
        <source>Requests</source>
        <translation>Solicitudes</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>solicitudes/s</translation>
    </message>
    <message>
        <source>per second</source>
        <translation>por segundo</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latencia</translation>
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
        <translation>Errores</translation>
    </message>
    <message>
        <source>errors/s</source>
        <translation>errores/s</translation>
    </message>
    <message>
        <source>Select a version to chart its requests, latency and errors.</source>
        <translation>Seleccione una versión para graficar sus solicitudes, latencia y errores.</translation>
    </message>
    <message>
        <source>No request in the last hour.</source>
        <translation>Ninguna solicitud en la última hora.</translation>
    </message>
    <message>
        <source>Last 10 s: %1 requests/s, p50 %2 ms, p99 %3 ms, %4 errors/s</source>
        <extracomment>The latest 10-second interval&apos;s figures.</extracomment>
        <translation>Últimos 10 s: %1 solicitudes/s, p50 %2 ms, p99 %3 ms, %4 errores/s</translation>
    </message>
    <message>
        <source>Last 10 s: no request</source>
        <translation>Últimos 10 s: ninguna solicitud</translation>
    </message>
</context>
<context>
    <name>Trainyard::VersionDetailsPanel</name>
    <message>
        <source>Select a version (or a model, for its default version) to see its details.</source>
        <translation>Seleccione una versión (o un modelo, para su versión predeterminada) para ver sus detalles.</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>Versión:</translation>
    </message>
    <message>
        <source>State:</source>
        <translation>Estado:</translation>
    </message>
    <message>
        <source>Description:</source>
        <translation>Descripción:</translation>
    </message>
    <message>
        <source>Labels:</source>
        <translation>Etiquetas:</translation>
    </message>
    <message>
        <source>Created:</source>
        <translation>Creada:</translation>
    </message>
    <message>
        <source>Last use:</source>
        <translation>Último uso:</translation>
    </message>
    <message>
        <source>Framework:</source>
        <translation>Framework:</translation>
    </message>
    <message>
        <source>Runtime version:</source>
        <translation>Versión del entorno:</translation>
    </message>
    <message>
        <source>Prediction routine:</source>
        <translation>Rutina de predicción:</translation>
    </message>
    <message>
        <source>Deployment folder:</source>
        <translation>Carpeta de despliegue:</translation>
    </message>
    <message>
        <source>Machine type:</source>
        <translation>Tipo de máquina:</translation>
    </message>
    <message>
        <source>Scaling:</source>
        <translation>Escalado:</translation>
    </message>
    <message>
        <source>Prediction timeout:</source>
        <translation>Tiempo límite de predicción:</translation>
    </message>
    <message>
        <source>Requests (last hour):</source>
        <translation>Solicitudes (última hora):</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source> (the model&apos;s default version)</source>
        <translation> (la versión predeterminada del modelo)</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nunca</translation>
    </message>
    <message>
        <source>%1 (detected from %2)</source>
        <translation>%1 (detectado por %2)</translation>
    </message>
    <message>
        <source>the executor&apos;s newest</source>
        <translation>la más reciente del ejecutor</translation>
    </message>
    <message>
        <source>, Python %1</source>
        <translation>, Python %1</translation>
    </message>
    <message>
        <source>%1 from %2</source>
        <translation>%1 de %2</translation>
    </message>
    <message>
        <source>mls1-c1-m2 (the default)</source>
        <translation>mls1-c1-m2 (predeterminado)</translation>
    </message>
    <message numerus="yes">
        <source>manual: %n node(s)</source>
        <translation>
            <numerusform>manual: %n nodo</numerusform>
            <numerusform>manual: %n nodos</numerusform>
        </translation>
    </message>
    <message>
        <source>automatic: %1 to %2 nodes</source>
        <translation>automático: de %1 a %2 nodos</translation>
    </message>
    <message numerus="yes">
        <source>automatic: at least %n node(s)</source>
        <translation>
            <numerusform>automático: al menos %n nodo</numerusform>
            <numerusform>automático: al menos %n nodos</numerusform>
        </translation>
    </message>
    <message>
        <source>1 node (no scaling given)</source>
        <translation>1 nodo (sin escalado indicado)</translation>
    </message>
    <message numerus="yes">
        <source>%n second(s)</source>
        <translation>
            <numerusform>%n segundo</numerusform>
            <numerusform>%n segundos</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n second(s) (the default)</source>
        <translation>
            <numerusform>%n segundo (predeterminado)</numerusform>
            <numerusform>%n segundos (predeterminado)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 requests, %2 errors (the executor&apos;s %n-second intervals of the last hour)</source>
        <translation>
            <numerusform>%1 solicitudes, %2 errores (los intervalos de %n segundo del ejecutor en la última hora)</numerusform>
            <numerusform>%1 solicitudes, %2 errores (los intervalos de %n segundos del ejecutor en la última hora)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardAppPage</name>
    <message>
        <source>&amp;Folder…</source>
        <translation>&amp;Carpeta…</translation>
    </message>
    <message>
        <source>&amp;Archive…</source>
        <translation>A&amp;rchivo comprimido…</translation>
    </message>
    <message>
        <source>Training application</source>
        <translation>Aplicación de entrenamiento</translation>
    </message>
    <message>
        <source>Folder with setup.py or pyproject.toml, or an sdist .tar.gz</source>
        <translation>Carpeta con setup.py o pyproject.toml, o un sdist .tar.gz</translation>
    </message>
    <message>
        <source>e.g. trainer.task</source>
        <translation>p. ej. trainer.task</translation>
    </message>
    <message>
        <source>&amp;Package:</source>
        <translation>&amp;Paquete:</translation>
    </message>
    <message>
        <source>&amp;Module:</source>
        <translation>&amp;Módulo:</translation>
    </message>
    <message>
        <source>Ar&amp;guments:</source>
        <translation>Ar&amp;gumentos:</translation>
    </message>
    <message>
        <source>&amp;Runtime version:</source>
        <translation>&amp;Versión del entorno de ejecución:</translation>
    </message>
    <message>
        <source>P&amp;ython version:</source>
        <translation>Versión de P&amp;ython:</translation>
    </message>
    <message>
        <source>Package folder</source>
        <translation>Carpeta del paquete</translation>
    </message>
    <message>
        <source>Package archive</source>
        <translation>Archivo comprimido del paquete</translation>
    </message>
    <message>
        <source>Source distributions (*.tar.gz)</source>
        <translation>Distribuciones de código fuente (*.tar.gz)</translation>
    </message>
    <message>
        <source>Runtime default</source>
        <translation>Predeterminada del entorno de ejecución</translation>
    </message>
    <message>
        <source>%1 (not in the executor&apos;s catalog)</source>
        <translation>%1 (no está en el catálogo del ejecutor)</translation>
    </message>
    <message>
        <source>Executor default</source>
        <translation>Predeterminada del ejecutor</translation>
    </message>
    <message>
        <source>%1 (Python %2, %3)</source>
        <translation>%1 (Python %2, %3)</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 no existe.</translation>
    </message>
    <message>
        <source>%1 is neither a package folder nor a source distribution (.tar.gz).</source>
        <translation>%1 no es ni una carpeta de paquete ni una distribución de código fuente (.tar.gz).</translation>
    </message>
    <message>
        <source>%1 is not readable.</source>
        <translation>%1 no se puede leer.</translation>
    </message>
    <message>
        <source>Name the module to run, e.g. trainer.task.</source>
        <translation>Indique el módulo que se ejecutará, p. ej. trainer.task.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a Python module name (dotted identifiers, e.g. trainer.task).</source>
        <translation>«%1» no es un nombre de módulo de Python (identificadores separados por puntos, p. ej. trainer.task).</translation>
    </message>
    <message>
        <source>As on a command line, e.g. --epochs 2 --name &apos;my run&apos;</source>
        <translation>Como en una línea de órdenes, p. ej. --epochs 2 --name &apos;mi ejecución&apos;</translation>
    </message>
    <message>
        <source>The trainer&apos;s arguments, split into words as a shell splits them: blanks and new lines separate words, quotes (&apos;…&apos; or &quot;…&quot;) keep blanks inside one word, a backslash escapes the next character.</source>
        <translation>Los argumentos del entrenador, divididos en palabras como lo hace un shell: los espacios y los saltos de línea separan palabras, las comillas (&apos;…&apos; o &quot;…&quot;) mantienen los espacios dentro de una palabra y una barra invertida escapa el carácter siguiente.</translation>
    </message>
    <message>
        <source>Arguments: a quote is not closed. Close it, or escape a literal quote with a backslash (\&apos;).</source>
        <translation>Argumentos: hay una comilla sin cerrar. Ciérrela o escape una comilla literal con una barra invertida (\&apos;).</translation>
    </message>
    <message>
        <source>The trainer gets no arguments of its own (only --job-dir).</source>
        <translation>El entrenador no recibe argumentos propios (solo --job-dir).</translation>
    </message>
    <message>
        <source>The trainer&apos;s arguments (sys.argv[1:]): %1</source>
        <extracomment>%1 is a Python list of the words, e.g. [&apos;--epochs&apos;, &apos;2&apos;].</extracomment>
        <translation>Los argumentos del entrenador (sys.argv[1:]): %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;packageUris&lt;/b&gt;: the Python package with the training program, here a folder with setup.py or pyproject.toml or a source distribution (.tar.gz); the executor installs it with pip, offline, before the replicas start.</source>
        <translation>&lt;b&gt;packageUris&lt;/b&gt;: el paquete de Python con el programa de entrenamiento, aquí una carpeta con setup.py o pyproject.toml o una distribución de código fuente (.tar.gz); el ejecutor lo instala con pip, sin conexión, antes de que arranquen las réplicas.</translation>
    </message>
    <message>
        <source>&lt;b&gt;pythonModule&lt;/b&gt; (required): the module each replica runs as python -m MODULE, a dotted name such as trainer.task. The modules of the package are offered.</source>
        <translation>&lt;b&gt;pythonModule&lt;/b&gt; (obligatorio): el módulo que cada réplica ejecuta como python -m MÓDULO, un nombre con puntos como trainer.task. Se ofrecen los módulos del paquete.</translation>
    </message>
    <message>
        <source>&lt;b&gt;runtimeVersion&lt;/b&gt;: picks the Python interpreter the replicas run with; the executor&apos;s catalog lists what this host has.</source>
        <translation>&lt;b&gt;runtimeVersion&lt;/b&gt;: elige el intérprete de Python con el que se ejecutan las réplicas; el catálogo del ejecutor muestra los que tiene este host.</translation>
    </message>
    <message>
        <source>&amp;Container image</source>
        <translation>Imagen de &amp;contenedor</translation>
    </message>
    <message>
        <source>&lt;b&gt;Custom container&lt;/b&gt; (masterConfig.imageUri): every replica runs this image under podman on the executor&apos;s host, with the job dir mounted at the same path and the same variables (TF_CONFIG …) as a package replica. The arguments and --job-dir go to the image&apos;s entrypoint.</source>
        <translation>&lt;b&gt;Contenedor personalizado&lt;/b&gt; (masterConfig.imageUri): cada réplica ejecuta esta imagen con podman en el equipo del ejecutor, con el directorio del trabajo montado en la misma ruta y las mismas variables (TF_CONFIG …) que una réplica de paquete. Los argumentos y --job-dir van al punto de entrada de la imagen.</translation>
    </message>
    <message>
        <source>Type to filter the host&apos;s images, e.g. localhost/trainer:1</source>
        <translation>Escriba para filtrar las imágenes del equipo, p. ej. localhost/trainer:1</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <source>List the images of the executor&apos;s host again (podman images)</source>
        <translation>Volver a listar las imágenes del equipo del ejecutor (podman images)</translation>
    </message>
    <message>
        <source>The image&apos;s ENTRYPOINT</source>
        <translation>El ENTRYPOINT de la imagen</translation>
    </message>
    <message>
        <source>&lt;b&gt;containerCommand&lt;/b&gt; (optional): replaces the image&apos;s ENTRYPOINT (and its CMD), as shell words, e.g. python3 -m trainer.task.</source>
        <translation>&lt;b&gt;containerCommand&lt;/b&gt; (opcional): sustituye el ENTRYPOINT de la imagen (y su CMD), como palabras de shell, p. ej. python3 -m trainer.task.</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>Ejecuta:</translation>
    </message>
    <message>
        <source>%1, created %2</source>
        <translation>%1, creada el %2</translation>
    </message>
    <message>
        <source>The executor cannot list its host&apos;s images: %1</source>
        <translation>El ejecutor no puede listar las imágenes de su equipo: %1</translation>
    </message>
    <message>
        <source>Pick or type the image every replica runs.</source>
        <translation>Elija o escriba la imagen que ejecuta cada réplica.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an image reference (no blanks; e.g. localhost/trainer:1).</source>
        <translation>«%1» no es una referencia de imagen (sin espacios; p. ej. localhost/trainer:1).</translation>
    </message>
    <message>
        <source>%1 is not among the host&apos;s images; the executor will refuse it unless it is there by then (podman build or podman load on the executor&apos;s host).</source>
        <extracomment>%1 is an image reference.</extracomment>
        <translation>%1 no está entre las imágenes del equipo; el ejecutor la rechazará si para entonces no está (podman build o podman load en el equipo del ejecutor).</translation>
    </message>
    <message>
        <source>Python pac&amp;kage</source>
        <translation>Pa&amp;quete de Python</translation>
    </message>
    <message>
        <source>Imag&amp;e:</source>
        <translation>Imag&amp;en:</translation>
    </message>
    <message>
        <source>Comman&amp;d:</source>
        <translation>Coman&amp;do:</translation>
    </message>
    <message>
        <source>The algorithm&apos;s arguments: %1</source>
        <extracomment>%1 is a Python list of the words, e.g. [&apos;--preprocess&apos;, &apos;--training_data_path=/data/t.csv&apos;].</extracomment>
        <translation>Los argumentos del algoritmo: %1</translation>
    </message>
    <message>
        <source>Other arguments of the algorithm, e.g. --colsample_bylevel=0.8 --seed=7</source>
        <translation>Otros argumentos del algoritmo, p. ej. --colsample_bylevel=0.8 --seed=7</translation>
    </message>
    <message>
        <source>%1 is a folder without setup.py, pyproject.toml or __init__.py: not a Python package.</source>
        <translation>%1 es una carpeta sin setup.py, pyproject.toml ni __init__.py: no es un paquete de Python.</translation>
    </message>
    <message>
        <source>Choose the package to install: a folder with setup.py or pyproject.toml, a package folder (with __init__.py, as gcloud&apos;s --package-path), or a .tar.gz.</source>
        <translation>Elija el paquete que instalar: una carpeta con setup.py o pyproject.toml, una carpeta de paquete (con __init__.py, como en --package-path de gcloud) o un .tar.gz.</translation>
    </message>
    <message>
        <source>%1 (runs as Python %2)</source>
        <translation>%1 (se ejecuta como Python %2)</translation>
    </message>
    <message>
        <source>Built-in algorithm</source>
        <translation>Algoritmo integrado</translation>
    </message>
    <message>
        <source>The algorithm and the CSV table it trains on, no code: the job runs the service&apos;s algorithm image with these arguments.</source>
        <translation>El algoritmo y la tabla CSV con la que entrena, sin código: el trabajo ejecuta la imagen del algoritmo del servicio con estos argumentos.</translation>
    </message>
    <message>
        <source>The Python package to install and the module to run (python -m MODULE ARGS…), or a container image of the executor&apos;s host. Drop a package folder or .tar.gz here.</source>
        <translation>El paquete de Python que se instala y el módulo que se ejecuta (python -m MÓDULO ARGS…), o una imagen de contenedor del host del ejecutor. Suelte aquí una carpeta de paquete o un .tar.gz.</translation>
    </message>
    <message>
        <source>%1 (the service&apos;s Python %2; runs Python %3, %4)</source>
        <translation>%1 (Python %2 según el servicio; se ejecuta con Python %3, %4)</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardBatchPage</name>
    <message>
        <source>A &amp;deployed model</source>
        <translation>Un modelo &amp;desplegado</translation>
    </message>
    <message>
        <source>A model &amp;folder</source>
        <translation>Una &amp;carpeta de modelo</translation>
    </message>
    <message>
        <source>Batch prediction</source>
        <translation>Predicción por lotes</translation>
    </message>
    <message>
        <source>Predict every instance of your files with a model: its workers share the files and write prediction.results-NNNNN-of-NNNNN files in the output folder.</source>
        <translation>Predecir cada instancia de sus archivos con un modelo: sus workers se reparten los archivos y escriben archivos prediction.results-NNNNN-of-NNNNN en la carpeta de salida.</translation>
    </message>
    <message>
        <source>&lt;b&gt;modelName&lt;/b&gt;: the model&apos;s default version predicts, unless you pick a version (&lt;b&gt;versionName&lt;/b&gt;). Only a READY version can.</source>
        <translation>&lt;b&gt;modelName&lt;/b&gt;: predice la versión predeterminada del modelo, salvo que elija una versión (&lt;b&gt;versionName&lt;/b&gt;). Solo puede hacerlo una versión READY.</translation>
    </message>
    <message>
        <source>e.g. /home/me/jobs/census_1/model</source>
        <translation>p. ej. /home/me/jobs/census_1/model</translation>
    </message>
    <message>
        <source>&lt;b&gt;uri&lt;/b&gt;: a folder with model.joblib, model.pkl, model.bst or model.pt (or a built-in algorithm&apos;s model folder), inside the executor&apos;s job-dir roots.</source>
        <translation>&lt;b&gt;uri&lt;/b&gt;: una carpeta con model.joblib, model.pkl, model.bst o model.pt (o la carpeta de modelo de un algoritmo integrado), dentro de las raíces de directorios de trabajo del ejecutor.</translation>
    </message>
    <message>
        <source>e.g. /data/instances-*.json, /data/more.json</source>
        <translation>p. ej. /data/instances-*.json, /data/more.json</translation>
    </message>
    <message>
        <source>&lt;b&gt;inputPaths&lt;/b&gt;: files of this machine, separated by commas; a * in a file name matches many, as the service allows.</source>
        <translation>&lt;b&gt;inputPaths&lt;/b&gt;: archivos de esta máquina, separados por comas; un * en el nombre de archivo coincide con varios, como en el servicio.</translation>
    </message>
    <message>
        <source>The first instances of the first file show here.</source>
        <translation>Aquí aparecen las primeras instancias del primer archivo.</translation>
    </message>
    <message>
        <source>JSON: a JSON instance a line</source>
        <translation>JSON: una instancia JSON por línea</translation>
    </message>
    <message>
        <source>Text: a JSON instance, or a string, a line</source>
        <translation>Texto: una instancia JSON, o una cadena, por línea</translation>
    </message>
    <message>
        <source>CSV: a row of values a line</source>
        <translation>CSV: una fila de valores por línea</translation>
    </message>
    <message>
        <source>&lt;b&gt;dataFormat&lt;/b&gt;. TFRecord files cannot be read here: there is no TensorFlow.</source>
        <translation>&lt;b&gt;dataFormat&lt;/b&gt;. Los archivos TFRecord no se pueden leer aquí: no hay TensorFlow.</translation>
    </message>
    <message>
        <source>e.g. /home/me/predictions/census</source>
        <translation>p. ej. /home/me/predictions/census</translation>
    </message>
    <message>
        <source>JSON lines: the instance and its prediction</source>
        <translation>Líneas JSON: la instancia y su predicción</translation>
    </message>
    <message>
        <source>CSV: the prediction&apos;s values</source>
        <translation>CSV: los valores de la predicción</translation>
    </message>
    <message>
        <source>&lt;b&gt;maxWorkerCount&lt;/b&gt;: workers share the input; on this host at most one per CPU, and one per 64 KiB of input.</source>
        <translation>&lt;b&gt;maxWorkerCount&lt;/b&gt;: los workers se reparten la entrada; en este host como máximo uno por CPU y uno por cada 64 KiB de entrada.</translation>
    </message>
    <message>
        <source>&lt;b&gt;batchSize&lt;/b&gt;: instances given to one predict() call.</source>
        <translation>&lt;b&gt;batchSize&lt;/b&gt;: instancias que recibe cada llamada a predict().</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Modelo:</translation>
    </message>
    <message>
        <source>&amp;Input files:</source>
        <translation>Archivos de &amp;entrada:</translation>
    </message>
    <message>
        <source>Input f&amp;ormat:</source>
        <translation>F&amp;ormato de entrada:</translation>
    </message>
    <message>
        <source>Output fold&amp;er:</source>
        <translation>Carpeta de sali&amp;da:</translation>
    </message>
    <message>
        <source>Output forma&amp;t:</source>
        <translation>Forma&amp;to de salida:</translation>
    </message>
    <message>
        <source>&amp;Batch size:</source>
        <translation>Tamaño de &amp;lote:</translation>
    </message>
    <message>
        <source>&amp;Workers at most:</source>
        <translation>&amp;Workers como máximo:</translation>
    </message>
    <message>
        <source>Give an absolute path.</source>
        <translation>Indique una ruta absoluta.</translation>
    </message>
    <message>
        <source>Model Folder</source>
        <translation>Carpeta del modelo</translation>
    </message>
    <message>
        <source>Input Files</source>
        <translation>Archivos de entrada</translation>
    </message>
    <message>
        <source>Instances (*.json *.jsonl *.txt *.csv);;All files (*)</source>
        <translation>Instancias (*.json *.jsonl *.txt *.csv);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Output Folder</source>
        <translation>Carpeta de salida</translation>
    </message>
    <message>
        <source>The models cannot be listed: %1</source>
        <translation>No se pueden listar los modelos: %1</translation>
    </message>
    <message>
        <source>(no model deployed)</source>
        <translation>(ningún modelo desplegado)</translation>
    </message>
    <message>
        <source>Default version</source>
        <translation>Versión predeterminada</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1: give an absolute path.</source>
        <translation>%1: indique una ruta absoluta.</translation>
    </message>
    <message>
        <source>No file matches %1.</source>
        <translation>Ningún archivo coincide con %1.</translation>
    </message>
    <message>
        <source>%1: a * is allowed only in the file name.</source>
        <translation>%1: un * solo se permite en el nombre de archivo.</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), %1</source>
        <extracomment>%n is a count of files, %1 their size (&quot;1.2 MB&quot;).</extracomment>
        <translation>
            <numerusform>%n archivo, %1</numerusform>
            <numerusform>%n archivos, %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (not readable here)</source>
        <translation>%1 (no se puede leer aquí)</translation>
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
        <translation>Maestro</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Trabajadores</translation>
    </message>
    <message>
        <source>Parameter servers</source>
        <translation>Servidores de parámetros</translation>
    </message>
    <message>
        <source>Evaluators</source>
        <translation>Evaluadores</translation>
    </message>
    <message>
        <source>%1 — %2 vCPUs, %3 GB</source>
        <translation>%1 — %2 vCPU, %3 GB</translation>
    </message>
    <message>
        <source>%1 × %2 %3 (%4 vCPUs, %5 GB)</source>
        <translation>%1 × %2 %3 (%4 vCPU, %5 GB)</translation>
    </message>
    <message>
        <source> + %1 × %2</source>
        <translation> + %1 × %2</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Recursos de cómputo</translation>
    </message>
    <message>
        <source>&lt;b&gt;Role&lt;/b&gt;</source>
        <translation>&lt;b&gt;Rol&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Machine type&lt;/b&gt;</source>
        <translation>&lt;b&gt;Tipo de máquina&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Count&lt;/b&gt;</source>
        <translation>&lt;b&gt;Cantidad&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Accelerator&lt;/b&gt;</source>
        <translation>&lt;b&gt;Acelerador&lt;/b&gt;</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(ninguno)</translation>
    </message>
    <message>
        <source>A job has exactly one master.</source>
        <translation>Un trabajo tiene exactamente un maestro.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Scale tier&lt;/b&gt;</source>
        <translation>&lt;b&gt;Nivel de escala&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Your machine types and counts (below)</source>
        <translation>Sus tipos de máquina y cantidades (abajo)</translation>
    </message>
    <message>
        <source>Unavailable: %1</source>
        <translation>No disponible: %1</translation>
    </message>
    <message>
        <source>Choose a machine type first</source>
        <translation>Elija primero un tipo de máquina</translation>
    </message>
    <message>
        <source>Comes with %1 × %2</source>
        <translation>Incluye %1 × %2</translation>
    </message>
    <message>
        <source>No accelerators for this machine type</source>
        <translation>No hay aceleradores para este tipo de máquina</translation>
    </message>
    <message>
        <source>Host not known yet</source>
        <translation>Todavía no se conoce el host</translation>
    </message>
    <message>
        <source>No GPUs on this host</source>
        <translation>No hay GPU en este host</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Ninguno</translation>
    </message>
    <message>
        <source>%1 (%2 on this host)</source>
        <translation>%1 (%2 en este host)</translation>
    </message>
    <message>
        <source>This host has no GPU this machine type takes</source>
        <translation>Este host no tiene ninguna GPU compatible con este tipo de máquina</translation>
    </message>
    <message>
        <source>%1 (not on this host)</source>
        <translation>%1 (no está en este host)</translation>
    </message>
    <message>
        <source>%1 (more than this host has)</source>
        <translation>%1 (más de las que tiene este host)</translation>
    </message>
    <message>
        <source>%1 (unknown machine type)</source>
        <translation>%1 (tipo de máquina desconocido)</translation>
    </message>
    <message>
        <source>CUSTOM needs a master machine type.</source>
        <translation>CUSTOM necesita un tipo de máquina para el maestro.</translation>
    </message>
    <message>
        <source>%1: %2 requested; choose their machine type.</source>
        <translation>%1: se solicitan %2; elija su tipo de máquina.</translation>
    </message>
    <message>
        <source>Choose a scale tier.</source>
        <translation>Elija un nivel de escala.</translation>
    </message>
    <message>
        <source>Complete the roles above to see what this job needs.</source>
        <translation>Complete los roles de arriba para ver lo que necesita este trabajo.</translation>
    </message>
    <message>
        <source>The executor has not said what this host has yet, so whether the job fits is not known.</source>
        <translation>El ejecutor todavía no ha indicado qué tiene este host, así que no se sabe si el trabajo cabe.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Can never run here:&lt;/b&gt;</source>
        <translation>&lt;b&gt;Nunca podrá ejecutarse aquí:&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s)</source>
        <translation>
            <numerusform>, %n GPU</numerusform>
            <numerusform>, %n GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>Legacy machine types</source>
        <translation>Tipos de máquina heredados</translation>
    </message>
    <message>
        <source>&lt;b&gt;Machine type&lt;/b&gt; (the service&apos;s rules): required for the master when the scale tier is CUSTOM, and for a role whose count is set; Compute Engine types (n1-…, a2-…) do not mix with legacy ones (standard, large_model …). Its vCPUs and memory are what the executor reserves on this host.</source>
        <translation>&lt;b&gt;Tipo de máquina&lt;/b&gt; (reglas del servicio): obligatorio para el maestro cuando el nivel de escala es CUSTOM, y para un rol con cantidad; los tipos de Compute Engine (n1-…, a2-…) no se mezclan con los heredados (standard, large_model …). Sus vCPU y su memoria son lo que el ejecutor reserva en este host.</translation>
    </message>
    <message>
        <source>&lt;b&gt;acceleratorConfig&lt;/b&gt; (the service&apos;s rules): a type and a count the machine type allows; here only GPUs this host has. Each replica gets its own GPUs (CUDA_VISIBLE_DEVICES).</source>
        <translation>&lt;b&gt;acceleratorConfig&lt;/b&gt; (reglas del servicio): un tipo y una cantidad que el tipo de máquina admite; aquí solo GPU que tiene este host. Cada réplica recibe sus propias GPU (CUDA_VISIBLE_DEVICES).</translation>
    </message>
    <message>
        <source>Where the job runs, then a scale tier, or CUSTOM machine types and counts per role. Replicas run as processes on this host, or on the nodes of a Slurm cluster.</source>
        <translation>Dónde se ejecuta el trabajo y, después, un nivel de escala o tipos de máquina CUSTOM y cantidades por rol. Las réplicas se ejecutan como procesos en este host o en los nodos de un clúster de Slurm.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Runs on&lt;/b&gt; (&lt;tt&gt;trainingInput.region&lt;/tt&gt;, gcloud&apos;s &lt;tt&gt;--region&lt;/tt&gt;): this host, or a Slurm cluster of the executor&apos;s clusters.yaml. On a cluster each replica gets a node of its own, with its machine type&apos;s vCPUs and memory and its GPUs; its logs, metrics and checkpoints show here as for a job on this host.</source>
        <translation>&lt;b&gt;Se ejecuta en&lt;/b&gt; (&lt;tt&gt;trainingInput.region&lt;/tt&gt;, &lt;tt&gt;--region&lt;/tt&gt; de gcloud): este host o un clúster de Slurm del clusters.yaml del ejecutor. En un clúster cada réplica obtiene un nodo propio, con las vCPU y la memoria de su tipo de máquina y sus GPU; sus registros, métricas y puntos de control se muestran aquí igual que los de un trabajo en este host.</translation>
    </message>
    <message>
        <source>This host</source>
        <translation>Este host</translation>
    </message>
    <message>
        <source>&lt;b&gt;Runs &amp;on&lt;/b&gt;</source>
        <translation>&lt;b&gt;Se &amp;ejecuta en&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 — Slurm cluster, %2</source>
        <translation>%1 — clúster de Slurm, %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 — Slurm cluster, partition %2: %3 of %n node(s) idle</source>
        <translation>
            <numerusform>%1 — clúster de Slurm, partición %2: %3 de %n nodo inactivo</numerusform>
            <numerusform>%1 — clúster de Slurm, partición %2: %3 de %n nodos inactivos</numerusform>
        </translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>(predeterminada)</translation>
    </message>
    <message numerus="yes">
        <source>, %n GPU(s) free</source>
        <translation>
            <numerusform>, %n GPU libre</numerusform>
            <numerusform>, %n GPU libres</numerusform>
        </translation>
    </message>
    <message>
        <source>No GPUs on this cluster&apos;s nodes</source>
        <translation>No hay GPU en los nodos de este clúster</translation>
    </message>
    <message>
        <source>%1 (the cluster&apos;s GPUs: up to %2 per node)</source>
        <translation>%1 (GPU del clúster: hasta %2 por nodo)</translation>
    </message>
    <message>
        <source>%1 (not on this cluster)</source>
        <translation>%1 (no está en este clúster)</translation>
    </message>
    <message>
        <source>%1 (more than a node has)</source>
        <translation>%1 (más de las que tiene un nodo)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cannot run on %1:&lt;/b&gt;</source>
        <translation>&lt;b&gt;No puede ejecutarse en %1:&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Needs %n node(s), one per replica</source>
        <translation>
            <numerusform>Necesita %n nodo, uno por réplica</numerusform>
            <numerusform>Necesita %n nodos, uno por réplica</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Fits %1 now.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Cabe en %1 ahora.&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 of its %2 usable nodes are idle; Slurm can start it at once.</source>
        <translation>%1 de sus %2 nodos utilizables están inactivos; Slurm puede iniciar el trabajo de inmediato.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Will queue on %1.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Quedará en cola en %1.&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Only %1 of its %2 usable nodes are idle now (or not those with the GPUs asked for): Slurm starts it when enough are free.</source>
        <translation>Ahora solo %1 de sus %2 nodos utilizables están inactivos (o no los que tienen las GPU solicitadas): Slurm iniciará el trabajo cuando haya suficientes libres.</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardJobPage</name>
    <message>
        <source>&amp;Suggest</source>
        <translation>Su&amp;gerir</translation>
    </message>
    <message>
        <source>&amp;Add label</source>
        <translation>Aña&amp;dir etiqueta</translation>
    </message>
    <message>
        <source>&amp;Remove label</source>
        <translation>&amp;Quitar etiqueta</translation>
    </message>
    <message>
        <source>&amp;Import config…</source>
        <translation>I&amp;mportar configuración…</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Trabajo</translation>
    </message>
    <message>
        <source>Name the job and label it, or start from a gcloud --config file.</source>
        <translation>Asigne un nombre al trabajo y etiquételo, o parta de un archivo de gcloud --config.</translation>
    </message>
    <message>
        <source>e.g. fmnist_20261122_061500</source>
        <translation>p. ej. fmnist_20261122_061500</translation>
    </message>
    <message>
        <source>Letters, digits and underscores; starts with a letter; at most 128 characters.</source>
        <translation>Letras, dígitos y guiones bajos; empieza por una letra; como máximo 128 caracteres.</translation>
    </message>
    <message>
        <source>Build &lt;base&gt;_&lt;YYYYMMDD_HHMMSS&gt; from the current text or the module name</source>
        <translation>Construir &lt;base&gt;_&lt;YYYYMMDD_HHMMSS&gt; a partir del texto actual o del nombre del módulo</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clave</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valor</translation>
    </message>
    <message>
        <source>Fill every page from a YAML or JSON job config (gcloud --config)</source>
        <translation>Rellenar todas las páginas a partir de una configuración de trabajo YAML o JSON (gcloud --config)</translation>
    </message>
    <message>
        <source>Job &amp;ID:</source>
        <translation>&amp;ID del trabajo:</translation>
    </message>
    <message>
        <source>&amp;Labels:</source>
        <translation>E&amp;tiquetas:</translation>
    </message>
    <message>
        <source>Import job config</source>
        <translation>Importar configuración del trabajo</translation>
    </message>
    <message>
        <source>Job configs (*.yaml *.yml *.json);;All files (*)</source>
        <translation>Configuraciones de trabajo (*.yaml *.yml *.json);;Todos los archivos (*)</translation>
    </message>
    <message>
        <source>Could not import %1: %2</source>
        <translation>No se pudo importar %1: %2</translation>
    </message>
    <message>
        <source>Checking whether the ID is free…</source>
        <translation>Comprobando si el ID está libre…</translation>
    </message>
    <message>
        <source>A job with the ID &quot;%1&quot; already exists on this executor.</source>
        <translation>Ya existe un trabajo con el ID «%1» en este ejecutor.</translation>
    </message>
    <message>
        <source>✓ No job has this ID yet.</source>
        <translation>✓ Ningún trabajo tiene todavía este ID.</translation>
    </message>
    <message>
        <source>Could not check whether the ID is free: %1</source>
        <translation>No se pudo comprobar si el ID está libre: %1</translation>
    </message>
    <message>
        <source>Row %1: a label needs a key.</source>
        <translation>Fila %1: una etiqueta necesita una clave.</translation>
    </message>
    <message>
        <source>The key &quot;%1&quot; appears more than once.</source>
        <translation>La clave «%1» aparece más de una vez.</translation>
    </message>
    <message>
        <source>&lt;b&gt;jobId&lt;/b&gt; (the service&apos;s rule): letters, numbers and underscores only, starting with a letter, at most 128 characters, and unique among the project&apos;s jobs.</source>
        <translation>&lt;b&gt;jobId&lt;/b&gt; (regla del servicio): solo letras, números y guiones bajos, empezando por una letra, como mucho 128 caracteres, y único entre los trabajos del proyecto.</translation>
    </message>
    <message>
        <source>&lt;b&gt;labels&lt;/b&gt; (the service&apos;s rule): at most 64 labels; keys and values at most 63 characters of lowercase letters, numbers, underscores and dashes; keys start with a letter. Filter the job list by them: labels.owner=alice.</source>
        <translation>&lt;b&gt;labels&lt;/b&gt; (regla del servicio): como mucho 64 etiquetas; claves y valores de hasta 63 caracteres de minúsculas, números, guiones bajos y guiones; las claves empiezan por una letra. Filtre la lista de trabajos por ellas: labels.owner=alice.</translation>
    </message>
    <message>
        <source>Your training a&amp;pplication (a Python package or a container image)</source>
        <translation>Su &amp;aplicación de entrenamiento (un paquete de Python o una imagen de contenedor)</translation>
    </message>
    <message>
        <source>A built-in al&amp;gorithm on a CSV table, no code</source>
        <translation>Un a&amp;lgoritmo integrado sobre una tabla CSV, sin código</translation>
    </message>
    <message>
        <source>&lt;b&gt;Built-in algorithm&lt;/b&gt;: XGBoost, a linear learner or wide and deep trained on a CSV table with the service&apos;s arguments, no training code of yours.</source>
        <translation>&lt;b&gt;Algoritmo integrado&lt;/b&gt;: XGBoost, un linear learner o un wide and deep entrenado sobre una tabla CSV con los argumentos del servicio, sin código de entrenamiento propio.</translation>
    </message>
    <message>
        <source>Batch p&amp;rediction: a model predicts the instances of files</source>
        <translation>P&amp;redicción por lotes: un modelo predice las instancias de archivos</translation>
    </message>
    <message>
        <source>&lt;b&gt;Batch prediction&lt;/b&gt; (&lt;tt&gt;predictionInput&lt;/tt&gt;): a job whose workers predict every instance of your files with a deployed model or a model folder.</source>
        <translation>&lt;b&gt;Predicción por lotes&lt;/b&gt; (&lt;tt&gt;predictionInput&lt;/tt&gt;): un trabajo cuyos workers predicen cada instancia de sus archivos con un modelo desplegado o una carpeta de modelo.</translation>
    </message>
    <message>
        <source>Job type:</source>
        <translation>Tipo de trabajo:</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardOutputPage</name>
    <message>
        <source>Output</source>
        <translation>Salida</translation>
    </message>
    <message>
        <source>&amp;Job dir:</source>
        <translation>Directorio del &amp;trabajo:</translation>
    </message>
    <message>
        <source>Job dir</source>
        <translation>Directorio del trabajo</translation>
    </message>
    <message>
        <source>%1 is a URL; a job dir here is a local folder.</source>
        <translation>%1 es una URL; aquí el directorio del trabajo es una carpeta local.</translation>
    </message>
    <message>
        <source>%1 is a file, not a folder.</source>
        <translation>%1 es un archivo, no una carpeta.</translation>
    </message>
    <message>
        <source>%1 is not writable.</source>
        <translation>No se puede escribir en %1.</translation>
    </message>
    <message>
        <source>%1 cannot be created: %2 is not a folder.</source>
        <translation>No se puede crear %1: %2 no es una carpeta.</translation>
    </message>
    <message>
        <source>%1 cannot be created: %2 is not writable.</source>
        <translation>No se puede crear %1: no se puede escribir en %2.</translation>
    </message>
    <message>
        <source>Br&amp;owse…</source>
        <translation>&amp;Examinar…</translation>
    </message>
    <message>
        <source>Use a ne&amp;w folder</source>
        <translation>Usar una carpeta &amp;nueva</translation>
    </message>
    <message>
        <source>The job dir receives checkpoints and summaries; the trainer gets it as --job-dir. Most trainers, the sample among them, need one.</source>
        <translation>El directorio del trabajo recibe los puntos de control y los resúmenes; el entrenador lo obtiene como --job-dir. La mayoría de los entrenadores, entre ellos el de ejemplo, necesitan uno.</translation>
    </message>
    <message>
        <source>A folder for the job&apos;s output</source>
        <translation>Una carpeta para la salida del trabajo</translation>
    </message>
    <message>
        <source>The service&apos;s jobDir: a full path the trainer receives as --job-dir and writes checkpoints, event files and exported models into. A folder that already holds checkpoints makes most trainers resume from them.</source>
        <translation>El jobDir del servicio: una ruta completa que el entrenador recibe como --job-dir y en la que escribe puntos de control, archivos de eventos y modelos exportados. Si la carpeta ya contiene puntos de control, la mayoría de los entrenadores se reanudan desde ellos.</translation>
    </message>
    <message>
        <source>A new, empty folder named after this job, under your data folder</source>
        <translation>Una carpeta nueva y vacía con el nombre de este trabajo, dentro de su carpeta de datos</translation>
    </message>
    <message>
        <source>job %1 (%2)</source>
        <translation>el trabajo %1 (%2)</translation>
    </message>
    <message>
        <source>This folder already holds %1 (%2); the trainer will resume from them instead of starting over.</source>
        <translation>Esta carpeta ya contiene %1 (%2); el entrenador se reanudará desde ellos en lugar de empezar de cero.</translation>
    </message>
    <message>
        <source>This folder already holds %1 (%2) written by %3; the trainer will resume from them instead of starting over.</source>
        <translation>Esta carpeta ya contiene %1 (%2) escritos por %3; el entrenador se reanudará desde ellos en lugar de empezar de cero.</translation>
    </message>
    <message numerus="yes">
        <source>at least %n checkpoint(s)</source>
        <translation>
            <numerusform>al menos %n punto de control</numerusform>
            <numerusform>al menos %n puntos de control</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n checkpoint(s)</source>
        <translation>
            <numerusform>%n punto de control</numerusform>
            <numerusform>%n puntos de control</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardReviewPage</name>
    <message>
        <source>&amp;Copy command</source>
        <translation>&amp;Copiar orden</translation>
    </message>
    <message>
        <source>&amp;Export config…</source>
        <translation>E&amp;xportar configuración…</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Revisión</translation>
    </message>
    <message>
        <source>The job as a gcloud --config file and as a trainyardctl command. Finish submits it.</source>
        <translation>El trabajo como archivo de gcloud --config y como orden de trainyardctl. Al finalizar, se envía.</translation>
    </message>
    <message>
        <source>Config (&amp;YAML):</source>
        <translation>Configuración (&amp;YAML):</translation>
    </message>
    <message>
        <source>Co&amp;mmand line:</source>
        <translation>&amp;Línea de órdenes:</translation>
    </message>
    <message>
        <source>Export job config</source>
        <translation>Exportar configuración del trabajo</translation>
    </message>
    <message>
        <source>YAML (*.yaml *.yml)</source>
        <translation>YAML (*.yaml *.yml)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>No se pudo escribir %1: %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>The command reads %1, which Export config… wrote.</source>
        <translation>La orden lee %1, que se escribió con «Exportar configuración…».</translation>
    </message>
    <message>
        <source>The command reads %1 for what no flag can say (the tuning spec, replica settings): Export config… writes it.</source>
        <translation>La orden lee %1 para lo que ninguna opción puede indicar (la especificación del ajuste, la configuración de las réplicas): «Exportar configuración…» lo escribe.</translation>
    </message>
</context>
<context>
    <name>Trainyard::WizardTuningPage</name>
    <message>
        <source>None</source>
        <translation>Ninguna</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>Lineal</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>Logarítmica</translation>
    </message>
    <message>
        <source>Reverse log</source>
        <translation>Logarítmica inversa</translation>
    </message>
    <message>
        <source>&amp;Tune hyperparameters</source>
        <translation>A&amp;justar hiperparámetros</translation>
    </message>
    <message>
        <source>Stop poor trials &amp;early</source>
        <translation>D&amp;etener antes las pruebas malas</translation>
    </message>
    <message>
        <source>&amp;Add parameter</source>
        <translation>Aña&amp;dir parámetro</translation>
    </message>
    <message>
        <source>Hyperparameter tuning</source>
        <translation>Ajuste de hiperparámetros</translation>
    </message>
    <message>
        <source>Optional: run the trainer many times (trials), each with other values for the flags below (--NAME=VALUE), and keep the values whose reported metric is best.</source>
        <translation>Opcional: ejecuta el entrenador muchas veces (pruebas), cada una con otros valores para las opciones de abajo (--NOMBRE=VALOR), y conserva los valores cuya métrica informada es la mejor.</translation>
    </message>
    <message>
        <source>Tune hyperparameters</source>
        <translation>Ajustar hiperparámetros</translation>
    </message>
    <message>
        <source>&lt;b&gt;hyperparameters&lt;/b&gt;: when on, the job is a tuning job. Each trial runs the whole cluster with the parameters below passed as --NAME=VALUE flags, and the trainer reports the metric with cloudml-hypertune.</source>
        <translation>&lt;b&gt;hyperparameters&lt;/b&gt;: si está activado, el trabajo es un trabajo de ajuste. Cada prueba ejecuta todo el clúster con los parámetros de abajo como opciones --NOMBRE=VALOR, y el entrenador informa de la métrica con cloudml-hypertune.</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>Objetivo</translation>
    </message>
    <message>
        <source>Maximize the metric</source>
        <translation>Maximizar la métrica</translation>
    </message>
    <message>
        <source>Minimize the metric</source>
        <translation>Minimizar la métrica</translation>
    </message>
    <message>
        <source>&lt;b&gt;goal&lt;/b&gt; (required): whether a larger (MAXIMIZE) or a smaller (MINIMIZE) value of the metric is better.</source>
        <translation>&lt;b&gt;goal&lt;/b&gt; (obligatorio): si un valor mayor (MAXIMIZE) o menor (MINIMIZE) de la métrica es mejor.</translation>
    </message>
    <message>
        <source>Metric tag</source>
        <translation>Etiqueta de la métrica</translation>
    </message>
    <message>
        <source>&lt;b&gt;hyperparameterMetricTag&lt;/b&gt;: the tag the trainer reports its metric under (cloudml-hypertune&apos;s report_hyperparameter_tuning_metric). Empty means the service&apos;s default, training/hptuning/metric.</source>
        <translation>&lt;b&gt;hyperparameterMetricTag&lt;/b&gt;: la etiqueta con la que el entrenador informa de su métrica (report_hyperparameter_tuning_metric de cloudml-hypertune). Vacía significa el valor predeterminado del servicio, training/hptuning/metric.</translation>
    </message>
    <message>
        <source>Search algorithm</source>
        <translation>Algoritmo de búsqueda</translation>
    </message>
    <message>
        <source>Bayesian optimisation</source>
        <translation>Optimización bayesiana</translation>
    </message>
    <message>
        <source>Grid search</source>
        <translation>Búsqueda en cuadrícula</translation>
    </message>
    <message>
        <source>Random search</source>
        <translation>Búsqueda aleatoria</translation>
    </message>
    <message>
        <source>&lt;b&gt;algorithm&lt;/b&gt;: Bayesian optimisation (the service&apos;s default, ALGORITHM_UNSPECIFIED) learns from finished trials; GRID_SEARCH tries every combination and cannot take DOUBLE parameters; RANDOM_SEARCH draws at random.</source>
        <translation>&lt;b&gt;algorithm&lt;/b&gt;: la optimización bayesiana (el valor predeterminado del servicio, ALGORITHM_UNSPECIFIED) aprende de las pruebas terminadas; GRID_SEARCH prueba todas las combinaciones y no admite parámetros DOUBLE; RANDOM_SEARCH elige al azar.</translation>
    </message>
    <message>
        <source>Maximum trials</source>
        <translation>Máximo de pruebas</translation>
    </message>
    <message>
        <source>&lt;b&gt;maxTrials&lt;/b&gt;: how many trials the study runs at most (the service&apos;s default is 1).</source>
        <translation>&lt;b&gt;maxTrials&lt;/b&gt;: cuántas pruebas ejecuta el estudio como máximo (el valor predeterminado del servicio es 1).</translation>
    </message>
    <message>
        <source>Maximum parallel trials</source>
        <translation>Máximo de pruebas en paralelo</translation>
    </message>
    <message>
        <source>&lt;b&gt;maxParallelTrials&lt;/b&gt;: how many trials run at the same time. Each trial needs the whole cluster of the Compute page.</source>
        <translation>&lt;b&gt;maxParallelTrials&lt;/b&gt;: cuántas pruebas se ejecutan a la vez. Cada prueba necesita todo el clúster de la página Cómputo.</translation>
    </message>
    <message>
        <source>Maximum failed trials</source>
        <translation>Máximo de pruebas fallidas</translation>
    </message>
    <message>
        <source>Service decides</source>
        <extracomment>Shown in the &quot;Max failed trials&quot; spin box at 0, the API&apos;s &quot;the service decides when to fail&quot;.</extracomment>
        <translation>Decide el servicio</translation>
    </message>
    <message>
        <source>&lt;b&gt;maxFailedTrials&lt;/b&gt;: the study fails after this many failed trials; 0 lets the service decide.</source>
        <translation>&lt;b&gt;maxFailedTrials&lt;/b&gt;: el estudio falla tras este número de pruebas fallidas; 0 deja que decida el servicio.</translation>
    </message>
    <message>
        <source>&lt;b&gt;enableTrialEarlyStopping&lt;/b&gt;: stop a trial whose reported metric is clearly worse than finished trials&apos; at the same step.</source>
        <translation>&lt;b&gt;enableTrialEarlyStopping&lt;/b&gt;: detiene una prueba cuya métrica informada es claramente peor que la de las pruebas terminadas en el mismo paso.</translation>
    </message>
    <message>
        <source>Resume a previous tuning job</source>
        <translation>Reanudar un trabajo de ajuste anterior</translation>
    </message>
    <message>
        <source>&lt;b&gt;resumePreviousJobId&lt;/b&gt;: continue the study of an earlier tuning job of this executor: its trials count as already tried.</source>
        <translation>&lt;b&gt;resumePreviousJobId&lt;/b&gt;: continúa el estudio de un trabajo de ajuste anterior de este ejecutor: sus pruebas cuentan como ya probadas.</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parámetros</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nombre</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Mín.</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Máx.</translation>
    </message>
    <message>
        <source>Values (comma-separated)</source>
        <translation>Valores (separados por comas)</translation>
    </message>
    <message>
        <source>Scale</source>
        <translation>Escala</translation>
    </message>
    <message>
        <source>&lt;b&gt;params&lt;/b&gt; (the service&apos;s rules): each name once, passed as --NAME=VALUE; DOUBLE and INTEGER need minValue &lt; maxValue (INTEGER bounds whole numbers); DISCRETE values strictly increasing, at most 1,000; CATEGORICAL values distinct; a log scale needs values above 0. Numbers use a dot for decimals.</source>
        <translation>&lt;b&gt;params&lt;/b&gt; (las reglas del servicio): cada nombre una sola vez, pasado como --NOMBRE=VALOR; DOUBLE e INTEGER necesitan minValue &lt; maxValue (límites de INTEGER enteros); valores DISCRETE estrictamente crecientes, como máximo 1000; valores CATEGORICAL distintos; una escala logarítmica necesita valores mayores que 0. Los números usan punto decimal.</translation>
    </message>
    <message>
        <source>Trial 1 command line</source>
        <translation>Línea de comandos de la prueba 1</translation>
    </message>
    <message>
        <source>&amp;Goal:</source>
        <translation>&amp;Objetivo:</translation>
    </message>
    <message>
        <source>A&amp;lgorithm:</source>
        <translation>A&amp;lgoritmo:</translation>
    </message>
    <message>
        <source>Res&amp;ume from:</source>
        <translation>Rean&amp;udar desde:</translation>
    </message>
    <message>
        <source>Max t&amp;rials:</source>
        <translation>Máx. de p&amp;ruebas:</translation>
    </message>
    <message>
        <source>Max &amp;parallel trials:</source>
        <translation>Máx. de pruebas en &amp;paralelo:</translation>
    </message>
    <message>
        <source>Max &amp;failed trials:</source>
        <translation>Máx. de pruebas &amp;fallidas:</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number (use a dot for decimals, e.g. 0.001 or 1e-4).</source>
        <extracomment>%1 is what the user typed in a Min, Max or Values cell.</extracomment>
        <translation>«%1» no es un número (use punto decimal, p. ej. 0.001 o 1e-4).</translation>
    </message>
    <message>
        <source>%1 (unknown algorithm)</source>
        <translation>%1 (algoritmo desconocido)</translation>
    </message>
    <message>
        <source>%1 (not on this executor)</source>
        <translation>%1 (no está en este ejecutor)</translation>
    </message>
    <message>
        <source>(none: a new study)</source>
        <translation>(ninguno: un estudio nuevo)</translation>
    </message>
    <message>
        <source>%1 — %2, %3 trials done</source>
        <extracomment>%1 is a job ID, %2 its state (Succeeded …), %3 how many trials it completed.</extracomment>
        <translation>%1 — %2, %3 pruebas hechas</translation>
    </message>
    <message>
        <source>Parameter %1 (%2): %3</source>
        <translation>Parámetro %1 (%2): %3</translation>
    </message>
    <message>
        <source>more than %1</source>
        <translation>más de %1</translation>
    </message>
    <message>
        <source>Grid points: %1 (the product of each parameter&apos;s number of values).</source>
        <translation>Puntos de la cuadrícula: %1 (el producto del número de valores de cada parámetro).</translation>
    </message>
    <message>
        <source>Grid search stops after %2 trials although maxTrials is %1.</source>
        <extracomment>%1 is maxTrials, %2 the number of grid points.</extracomment>
        <translation>La búsqueda en cuadrícula se detiene tras %2 pruebas aunque maxTrials sea %1.</translation>
    </message>
    <message>
        <source>Grid points: — (the DOUBLE parameter &quot;%1&quot; takes infinitely many values; only INTEGER, DISCRETE and CATEGORICAL parameters have a grid).</source>
        <extracomment>%1 is a parameter name. &quot;—&quot; stands for &quot;no number&quot;.</extracomment>
        <translation>Puntos de la cuadrícula: — (el parámetro DOUBLE «%1» toma infinitos valores; solo los parámetros INTEGER, DISCRETE y CATEGORICAL tienen cuadrícula).</translation>
    </message>
    <message>
        <source>Grid points: — (complete the parameters to count them).</source>
        <translation>Puntos de la cuadrícula: — (complete los parámetros para contarlos).</translation>
    </message>
    <message>
        <source>Trial 1 starts at the centre of the space (the midpoint of each range in its scale, the first category); later trials follow what the metric reports.</source>
        <translation>La prueba 1 empieza en el centro del espacio (el punto medio de cada rango en su escala, la primera categoría); las pruebas siguientes se guían por la métrica informada.</translation>
    </message>
    <message>
        <source>Grid search starts with every parameter&apos;s first value and steps through the combinations, the last parameter fastest.</source>
        <translation>La búsqueda en cuadrícula empieza con el primer valor de cada parámetro y recorre las combinaciones, el último parámetro más rápido.</translation>
    </message>
    <message>
        <source>Random search draws every trial&apos;s values at random; trial 1 is shown at the centre of the space as an example.</source>
        <translation>La búsqueda aleatoria elige los valores de cada prueba al azar; la prueba 1 se muestra en el centro del espacio como ejemplo.</translation>
    </message>
    <message>
        <source>Remo&amp;ve parameter</source>
        <translation>&amp;Quitar parámetro</translation>
    </message>
    <message>
        <source>&amp;Metric tag:</source>
        <translation>Etiqueta de la &amp;métrica:</translation>
    </message>
    <message>
        <source>Parameter&amp;s (each becomes --NAME=VALUE):</source>
        <translation>Parámetro&amp;s (cada uno se pasa como --NOMBRE=VALOR):</translation>
    </message>
    <message>
        <source>Parameter %1: %2</source>
        <extracomment>%1 is the parameter&apos;s row number, %2 its name, %3 the rule it breaks.</extracomment>
        <translation>Parámetro %1: %2</translation>
    </message>
    <message>
        <source>This study resumes %1: its trials count as already tried, trial IDs continue after its last one, and the first new trial&apos;s values follow from them, so the command above only shows the form of a trial&apos;s command line.</source>
        <extracomment>%1 is the job ID of the tuning job being resumed.</extracomment>
        <translation>Este estudio reanuda %1: sus pruebas cuentan como ya probadas, los ID de prueba continúan tras la última y los valores de la primera prueba nueva se derivan de ellas, así que el comando de arriba solo muestra la forma de la línea de comandos de una prueba.</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Trainyard console: submit and watch training jobs.</source>
        <translation>Consola de Trainyard: envíe y supervise trabajos de entrenamiento.</translation>
    </message>
    <message>
        <source>Talk to the executor at URL (never auto-started).</source>
        <translation>Comunicarse con el ejecutor en URL (nunca se inicia automáticamente).</translation>
    </message>
    <message>
        <source>Do not start the bundled executor when none answers.</source>
        <translation>No iniciar el ejecutor incluido cuando ninguno responde.</translation>
    </message>
</context>
</TS>
