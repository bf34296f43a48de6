"""A model as a file that cannot run code on load (DESIGN §9: never unpickle a file a
user sent).

The file is a zip of ``meta.json`` (settings, counts, the game's layout fingerprint) and
plain ``.npy`` arrays (numbers only). Loading never calls pickle: each array's header is
read and checked (dtype, shape, size against its bytes) before ``np.lib.format.read_array``
reads it with ``allow_pickle=False``, members are read with a byte cap (a zip bomb stops
at the cap), and the scikit-learn estimator is rebuilt from the arrays. Anything off —
not a zip, an unknown member, a wrong shape or dtype, a non-finite number, an unknown
algorithm or setting — is a ValueError that says what.
"""

import io
import json
import re
import zipfile

import numpy as np

from .algorithms import validate_settings
from .labels import LABELS
from .limits import LAST_DAY, MAX_FEATURES, MAX_POSITIONS, SORTED

FORMAT = "variant-foundry-learner"
VERSION = 1
MAX_FILE = 16 * 1024 * 1024  # bytes of the file itself
MAX_MEMBER = 8 * 1024 * 1024  # bytes of one member, uncompressed
MAX_META = 64 * 1024
MAX_MOVES = 10**12
K = len(LABELS)
LINEAR = ("coef", "intercept", "t")
BAYES = ("class_count", "feature_count")
MEMORY = ("position_keys", "position_days")
META_KEYS = {"format", "version", "algorithm", "params", "personality", "seed",
             "moves_studied", "n_features", "layout", "game"}  # fmt: skip


def _npy(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, np.ascontiguousarray(array), allow_pickle=False)
    return out.getvalue()


def dump(learner) -> bytes:
    meta = {
        "format": FORMAT,
        "version": VERSION,
        **{k: v for k, v in learner.settings().items()},
        "moves_studied": learner.moves_studied,
        "n_features": learner.n_features if learner.fitted else None,
        "layout": learner.layout,
        "game": learner.game,
    }
    arrays = {}
    if learner.fitted:
        est = learner.estimator
        if learner.algorithm == "naive_bayes":
            arrays["class_count"] = est.class_count_.astype(np.float64)
            arrays["feature_count"] = est.feature_count_.astype(np.float64)
        else:
            # float32, as scikit-learn keeps them for float32 features (continued
            # fitting after a load needs the same type)
            arrays["coef"] = est.coef_.astype(np.float32)
            arrays["intercept"] = est.intercept_.astype(np.float32)
            arrays["t"] = np.array([est.t_], dtype=np.float64)
    keys = np.fromiter(learner.positions.keys(), dtype=np.uint64, count=len(learner.positions))
    days = np.fromiter(learner.positions.values(), dtype=np.int64, count=len(learner.positions))
    arrays["position_keys"], arrays["position_days"] = keys, days
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("meta.json", json.dumps(meta, sort_keys=True))
        for name, array in arrays.items():
            z.writestr(f"{name}.npy", _npy(array))
    return out.getvalue()


def _read(z: zipfile.ZipFile, name: str, cap: int) -> bytes:
    with z.open(name) as f:
        data = f.read(cap + 1)
    if len(data) > cap:
        raise ValueError(f"{name}: larger than {cap} bytes")
    return data


def _array(z, name: str, dtype: str, shape: tuple) -> np.ndarray:
    """Member ``name``.npy as an array of exactly ``dtype`` and ``shape`` (None: any
    length on that axis, within the caps), its header checked before its data is read."""
    data = _read(z, f"{name}.npy", MAX_MEMBER)
    fp = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(fp)
        if version == (1, 0):
            got_shape, fortran, got_dtype = np.lib.format.read_array_header_1_0(fp)
        elif version == (2, 0):
            got_shape, fortran, got_dtype = np.lib.format.read_array_header_2_0(fp)
        else:
            raise ValueError(f"npy version {version}")
    except ValueError as exc:
        raise ValueError(f"{name}: not a plain numpy array ({exc})") from None
    if got_dtype != np.dtype(dtype) or fortran:
        raise ValueError(f"{name}: {np.dtype(dtype)} numbers expected, found {got_dtype}")
    if len(got_shape) != len(shape) or any(
        want is not None and want != got for want, got in zip(shape, got_shape, strict=True)
    ):
        raise ValueError(f"{name}: shape {tuple(got_shape)}, expected {shape}")
    count = int(np.prod(got_shape, dtype=np.int64))
    if count * got_dtype.itemsize != len(data) - fp.tell():
        raise ValueError(f"{name}: its data does not match its shape")
    fp.seek(0)
    array = np.lib.format.read_array(fp, allow_pickle=False)
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        raise ValueError(f"{name}: numbers must be finite")
    return array


def _int(meta: dict, key: str, low: int, high: int, none: bool = False):
    value = meta.get(key)
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"meta.{key}: a whole number from {low} to {high}")
    return value


def _meta(z) -> dict:
    try:
        meta = json.loads(_read(z, "meta.json", MAX_META))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("meta.json: not JSON") from None
    if not isinstance(meta, dict) or set(meta) != META_KEYS:
        raise ValueError(f"meta.json: the keys {', '.join(sorted(META_KEYS))}")
    if meta["format"] != FORMAT or meta["version"] != VERSION:
        raise ValueError(f"not a {FORMAT} file of version {VERSION}")
    for key in ("layout", "game"):
        value = meta[key]
        if value is not None and not (isinstance(value, str) and len(value) <= 200):
            raise ValueError(f"meta.{key}: text of at most 200 characters, or null")
    if meta["layout"] is not None and not re.fullmatch(r"[0-9a-f]{64}", meta["layout"]):
        raise ValueError("meta.layout: a rule document's fingerprint (64 hex digits)")
    return meta


def load(cls, data: bytes):
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ValueError("a model file is bytes")
    if len(data) > MAX_FILE:
        raise ValueError(f"a model file is at most {MAX_FILE} bytes")
    try:
        z = zipfile.ZipFile(io.BytesIO(bytes(data)))
        names = set(z.namelist())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
        raise ValueError("not a model file (not a zip archive)") from None
    try:
        return _load(cls, z, names)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, KeyError) as exc:
        raise ValueError(f"a damaged model file ({type(exc).__name__})") from None
    except (NotImplementedError, RuntimeError) as exc:  # odd compression, encryption
        raise ValueError(f"an unreadable model file ({exc})") from None


def _load(cls, z, names: set):
    meta = _meta(z)
    settings = validate_settings(meta["algorithm"], meta["params"], meta["personality"])
    seed = _int(meta, "seed", -(2**63), 2**63 - 1)
    moves = _int(meta, "moves_studied", 0, MAX_MOVES)
    n = _int(meta, "n_features", 1, MAX_FEATURES, none=True)
    bayes = settings["algorithm"] == "naive_bayes"
    fitted = n is not None
    if fitted != (moves > 0):
        raise ValueError("meta: n_features is set exactly when moves were studied")
    wanted = {f"{m}.npy" for m in MEMORY} | {"meta.json"}
    if fitted:
        wanted |= {f"{m}.npy" for m in (BAYES if bayes else LINEAR)}
    if names != wanted:
        raise ValueError(f"members: exactly {', '.join(sorted(wanted))}")
    learner = cls(settings, seed)
    learner.moves_studied = moves
    learner.layout, learner.game = meta["layout"], meta["game"]
    if fitted:
        est = learner.estimator
        est.classes_ = np.array(SORTED)
        est.n_features_in_ = n
        if bayes:
            est.class_count_ = _array(z, "class_count", "<f8", (K,))
            est.feature_count_ = _array(z, "feature_count", "<f8", (K, n))
            if (est.class_count_ < 0).any() or (est.feature_count_ < 0).any():
                raise ValueError("class_count, feature_count: counts are never negative")
            if (est.feature_count_ > est.class_count_[:, None] + 1e-6).any():
                raise ValueError("feature_count: more than its class's count")
            est._update_class_log_prior()
            est._update_feature_log_prob(est._check_alpha())
        else:
            est.coef_ = np.ascontiguousarray(_array(z, "coef", "<f4", (K, n)))
            est.intercept_ = _array(z, "intercept", "<f4", (K,))
            est.t_ = float(_array(z, "t", "<f8", (1,))[0])
            if est.t_ < 1:
                raise ValueError("t: at least 1")
        learner.n_features = n
    keys = _array(z, "position_keys", "<u8", (None,))
    days = _array(z, "position_days", "<i8", (len(keys),))
    if len(keys) > MAX_POSITIONS * 5 // 4:
        raise ValueError(f"position_keys: at most {MAX_POSITIONS * 5 // 4} positions")
    if len(days) and (days.min() < 1 or days.max() > LAST_DAY):
        raise ValueError("position_days: days from 0001-01-01 to 9999-12-31")
    learner.positions = dict(zip(keys.tolist(), days.tolist(), strict=True))
    return learner
