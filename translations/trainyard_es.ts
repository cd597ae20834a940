<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
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
            <source>Replicas (M + W + PS)</source>
            <translation>Réplicas (M + T + SP)</translation>
        </message>
        <message>
            <source>GPUs</source>
            <translation>GPU</translation>
        </message>
        <message>
            <source>Labels</source>
            <translation>Etiquetas</translation>
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
            <translation>Cancelar trabajo</translation>
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
            <source>%1 lines</source>
            <translation>%1 líneas</translation>
        </message>
        <message>
            <source>%1 of %2 lines</source>
            <translation>%1 de %2 líneas</translation>
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
            <source>The service's filter syntax: field:value (prefix with a trailing *), field=value, joined by AND; fields jobId, state, labels.KEY, createTime (also &lt; &gt; &lt;= &gt;=). Ctrl+F</source>
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
            <source>&amp;Cancel job</source>
            <translation>&amp;Cancelar trabajo</translation>
        </message>
        <message>
            <source>Copy job &amp;ID</source>
            <translation>Copiar &amp;ID del trabajo</translation>
        </message>
        <message>
            <source>&amp;Open job directory</source>
            <translation>A&amp;brir directorio del trabajo</translation>
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
            <source>&lt;b&gt;Trainyard&lt;/b&gt;&lt;p&gt;AI Platform Training's workflow on your workstation: submit training jobs, watch their replicas and logs.&lt;/p&gt;</source>
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
            <source>Host: %1 / %2 vCPUs, %3 / %4 GB, %5 / %6 GPUs · %7 running, %8 queued</source>
            <translation>Host: %1 / %2 vCPU, %3 / %4 GB, %5 / %6 GPU · %7 en ejecución, %8 en cola</translation>
        </message>
        <message>
            <source>Describe</source>
            <translation>Describir</translation>
        </message>
        <message>
            <source>Cancel job</source>
            <translation>Cancelar trabajo</translation>
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
            <source>The language of the console. "System default" follows the desktop's language settings (LANGUAGE, LC_MESSAGES, LANG).</source>
            <translation>El idioma de la consola. «Predeterminado del sistema» sigue la configuración de idioma del escritorio (LANGUAGE, LC_MESSAGES, LANG).</translation>
        </message>
        <message>
            <source>The menus and this window switch at once; some views show the new language only after Trainyard restarts.</source>
            <translation>Los menús y esta ventana cambian de inmediato; algunas vistas muestran el nuevo idioma solo después de reiniciar Trainyard.</translation>
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
