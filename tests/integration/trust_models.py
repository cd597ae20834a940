# SPDX-License-Identifier: GPL-2.0-or-later
"""The models and packages of integration/tst_predictiontrust (issue 42: the prediction surface holds).

    trust_models.py OUT

writes into OUT:
- ``lr/model.pkl``: a scikit-learn LogisticRegression of one feature (x < 1.5 → 0, else 1);
- ``routine/``: an empty model folder, and ``routine-package/`` (setup.py) whose ``trustroutine.Predictor`` answers
  ``{"big": N}`` with N bytes of text (an answer too large) and anything else with 2 * x;
- ``slow-package/``: a package whose setup.py sleeps for 10 minutes (a version that stays CREATING while pip runs);
- ``input-deep.json``: batch input of two good instances around one nested 1,000 levels deep.
"""

import os
import pickle
import sys
import textwrap


def main(out):
    from sklearn.linear_model import LogisticRegression
    os.makedirs(os.path.join(out, "lr"), exist_ok=True)
    model = LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])
    with open(os.path.join(out, "lr", "model.pkl"), "wb") as f:
        pickle.dump(model, f)

    os.makedirs(os.path.join(out, "routine"), exist_ok=True)
    package = os.path.join(out, "routine-package", "trustroutine")
    os.makedirs(package, exist_ok=True)
    with open(os.path.join(out, "routine-package", "setup.py"), "w") as f:
        f.write("from setuptools import setup\nsetup(name='trustroutine', version='0.1', packages=['trustroutine'])\n")
    with open(os.path.join(package, "__init__.py"), "w") as f:
        f.write(textwrap.dedent("""\
            class Predictor:
                @classmethod
                def from_path(cls, model_dir):
                    return cls()

                def predict(self, instances, **kwargs):
                    out = []
                    for x in instances:
                        if isinstance(x, dict) and "big" in x:
                            out.append("b" * int(x["big"]))
                        else:
                            out.append(2 * x)
                    return out
            """))

    slow = os.path.join(out, "slow-package")
    os.makedirs(os.path.join(slow, "slowpkg"), exist_ok=True)
    with open(os.path.join(slow, "setup.py"), "w") as f:
        f.write("import time\ntime.sleep(600)\nfrom setuptools import setup\n"
                "setup(name='slowpkg', version='0.1', packages=['slowpkg'])\n")
    with open(os.path.join(slow, "slowpkg", "__init__.py"), "w") as f:
        f.write("")

    with open(os.path.join(out, "input-deep.json"), "w") as f:
        f.write("[0.5]\n" + "[" * 1000 + "]" * 1000 + "\n[2.5]\n")


if __name__ == "__main__":
    main(sys.argv[1])
