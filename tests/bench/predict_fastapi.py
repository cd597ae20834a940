# SPDX-License-Identifier: GPL-2.0-or-later
"""bench_predict's serving anchor (issue 48): the same scikit-learn model behind FastAPI on uvicorn, as MLServer,
KServe's model servers and BentoML stand on, written as FastAPI's tutorial writes an endpoint (a pydantic request
model, an ``async def`` handler that calls the model: with one instance a request the call is shorter than a thread
hop, so a handler off the event loop would only be slower).

    TRAINYARD_BENCH_MODEL=MODEL.joblib python3 -m uvicorn predict_fastapi:app --app-dir tests/bench \\
        --port P --workers N --loop uvloop --http httptools --no-access-log --log-level warning

(predict_baseline.py fastapi starts it so). POST /predict {"instances": [...]} → {"predictions": [...]}.
"""
import os
from typing import Any, List

import joblib
import numpy as np
from fastapi import FastAPI
from pydantic import BaseModel

model = joblib.load(os.environ["TRAINYARD_BENCH_MODEL"])
app = FastAPI()


class PredictRequest(BaseModel):
    instances: List[Any]


@app.post("/predict")
async def predict(request: PredictRequest):
    return {"predictions": model.predict(np.asarray(request.instances)).tolist()}
