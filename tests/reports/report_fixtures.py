"""A small, realistic audit directory written by hand, for the report tests.

Three articles with Wikipedia-style paragraphs; the perturbed sets follow what each ablation
does (e1/e2/e6–e8 insert text before a sentence that does not hold the answer, one question per
paragraph copy; e3 reverses the sentence order; e4 keeps the interrogative words; e5 reverses
the question's words), every answer offset recomputed, plus a manifest and prediction files of
a made-up model that is misled by some insertions. ``payload=True`` adds an article whose
title, context, question, answer and prediction carry HTML/JS injection attempts.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PAYLOAD_SCRIPT = "<script>document.title='pwned'</script>"
PAYLOAD_IMG = "<img src=x onerror=\"document.title='pwned'\">"
PAYLOAD_TEXTAREA = "</textarea>"

# (title, sentences, [(qid, question, answer, wh-words, nouns, verbs, adjectives)])
ARTICLES = [
    ("Sun", [
        "The Sun is the star at the center of the Solar System.",
        "It is a nearly perfect ball of hot plasma, heated to incandescence by nuclear fusion reactions in its core.",
        "The Sun's diameter is about 1.39 million kilometers, or 109 times that of Earth.",
        "Its mass accounts for about 99.86% of the total mass of the Solar System.",
    ], [
        ("sun-1", "What is the diameter of the Sun?", "about 1.39 million kilometers", "What", "diameter Sun", "is", ""),
        ("sun-2", "What share of the Solar System's total mass does the Sun account for?", "about 99.86%", "What",
         "share Solar System mass Sun", "does account", "total"),
    ]),
    ("Jupiter", [
        "Jupiter is the fifth planet from the Sun and the largest in the Solar System.",
        "It is a gas giant with a mass more than two and a half times that of all the other planets combined.",
        "Jupiter has 95 known moons.",
        "The four largest moons were discovered by Galileo Galilei in 1610.",
    ], [
        ("jup-1", "How many known moons does Jupiter have?", "95", "How many", "moons Jupiter", "does have", "known"),
        ("jup-2", "Who discovered the four largest moons of Jupiter?", "Galileo Galilei", "Who", "moons Jupiter",
         "discovered", "largest"),
        ("jup-3", "In what year were the largest moons discovered?", "1610", "what", "year moons", "were discovered",
         "largest"),
    ]),
    ("Printing press", [
        "Johannes Gutenberg introduced the movable-type printing press to Europe around 1440.",
        "His method made books far cheaper to produce.",
        "By 1500, printing presses in Western Europe had produced more than twenty million volumes.",
        "The invention spread from Mainz to over two hundred cities.",
    ], [
        ("gut-1", "When did Gutenberg introduce the printing press to Europe?", "around 1440", "When",
         "Gutenberg printing press Europe", "did introduce", ""),
        ("gut-2", "How many volumes had presses in Western Europe produced by 1500?", "more than twenty million volumes",
         "How many", "volumes presses Europe", "had produced", "Western"),
    ]),
]

PAYLOAD_ARTICLE = (
    f"Injection {PAYLOAD_SCRIPT}", [
        f"The archive keeps a note that reads {PAYLOAD_SCRIPT} in red ink.",
        f"A second line says {PAYLOAD_IMG} and ends with {PAYLOAD_TEXTAREA} before the signature.",
        "The note was signed by Ada Lovelace in 1843.",
    ], [
        ("inj-1", f"Who signed the note that reads {PAYLOAD_SCRIPT}?", "Ada Lovelace", "Who", "note", "signed reads", ""),
        ("inj-2", "What does the note read?", PAYLOAD_SCRIPT, "What", "note", "does read", ""),
    ],
)

# Which ids are in the truncated set (the others are "dropped" for the insertion ablations).
DROPPED = {"gut-2": "answer sentence is the only non-empty unit"}

INSERT_ABLATIONS = {  # id: (name, which text to insert)
    "e1": ("insert question", lambda q: q[1]),
    "e2": ("insert half question", lambda q: " ".join(q[1].split()[: max(1, len(q[1].split()) // 2)])),
    "e6": ("insert nouns", lambda q: q[4]),
    "e7": ("insert verbs", lambda q: q[5]),
    "e8": ("insert adjectives", lambda q: q[6]),
}
CATEGORY = {"e1": "Similarity", "e2": "Similarity", "e3": "Similarity", "e4": "Question", "e5": "Question",
            "e6": "Keyword", "e7": "Keyword", "e8": "Keyword"}
SIGNAL = {a: ("small_drop" if a in ("e3", "e4", "e5") else "large_drop") for a in CATEGORY}


def _answer_sentence(sentences, answer):
    return next(i for i, s in enumerate(sentences) if answer in s)


def _qa(qid, question, context, answer):
    start = context.index(answer)
    return {"id": qid, "question": question, "answers": [{"text": answer, "answer_start": start}]}


def _squad(articles):
    return {"version": "1.1", "data": articles}


def build_sets(payload: bool):
    """Every set (name -> SQuAD object) and the manifest's per-ablation item records."""
    arts = ARTICLES + ([PAYLOAD_ARTICLE] if payload else [])
    sets: dict[str, list] = {name: [] for name in ["original", "original-truncated", *CATEGORY]}
    items: dict[str, dict] = {a: {} for a in CATEGORY}
    for title, sents, qs in arts:
        context = " ".join(sents)
        sets["original"].append({"title": title, "paragraphs": [{"context": context, "qas": [_qa(q[0], q[1], context, q[2]) for q in qs]}]})
        kept = [q for q in qs if q[0] not in DROPPED]
        sets["original-truncated"].append({"title": title, "paragraphs": [{"context": context, "qas": [_qa(q[0], q[1], context, q[2]) for q in kept]}]})
        # e3: reverse the sentence order (one paragraph, all questions)
        rev = list(reversed(range(len(sents))))
        shuffled = " ".join(sents[i] for i in rev)
        sets["e3"].append({"title": title, "paragraphs": [{"context": shuffled, "qas": [_qa(q[0], q[1], shuffled, q[2]) for q in qs]}]})
        for q in qs:
            items["e3"][q[0]] = {"changed": True, "reason": None, "detail": {"permutation": rev}}
        # e4 / e5: question edits, context unchanged
        e4, e5 = [], []
        for q in qs:
            e4.append(_qa(q[0], q[3], context, q[2]))
            items["e4"][q[0]] = {"changed": True, "reason": None, "detail": {"old_question": q[1], "new_question": q[3]}}
            words = q[1].rstrip("?").split()
            new = " ".join(reversed(words)) + "?"
            e5.append(_qa(q[0], new, context, q[2]))
            items["e5"][q[0]] = {"changed": True, "reason": None, "detail": {"old_question": q[1], "new_question": new}}
        sets["e4"].append({"title": title, "paragraphs": [{"context": context, "qas": e4}]})
        sets["e5"].append({"title": title, "paragraphs": [{"context": context, "qas": e5}]})
        # insertions: one paragraph copy per question, text inserted before the first non-answer sentence
        for aid, (_, make) in INSERT_ABLATIONS.items():
            paragraphs = []
            for q in kept:
                text = make(q)
                if not text:
                    paragraphs.append({"context": context, "qas": [_qa(q[0], q[1], context, q[2])]})
                    items[aid][q[0]] = {"changed": False, "reason": "no words of this part of speech", "detail": {}}
                    continue
                unit = next(i for i in range(len(sents)) if i != _answer_sentence(sents, q[2]))
                offset = sum(len(s) + 1 for s in sents[:unit])
                new_ctx = context[:offset] + text + " " + context[offset:]
                paragraphs.append({"context": new_ctx, "qas": [_qa(q[0], q[1], new_ctx, q[2])]})
                items[aid][q[0]] = {"changed": True, "reason": None, "detail": {"inserted": text, "offset": offset, "unit": unit}}
            sets[aid].append({"title": title, "paragraphs": paragraphs})
    return {k: _squad(v) for k, v in sets.items()}, items


def predict(set_name: str, squad: dict) -> dict[str, str]:
    """A made-up model: right on most originals, misled by insertions on some items, lost without the question."""
    out = {}
    for art in squad["data"]:
        for par in art["paragraphs"]:
            for qa in par["qas"]:
                qid, gold = qa["id"], qa["answers"][0]["text"]
                if qid == "jup-2":
                    pred = "Galileo"  # partial on every set
                elif set_name in ("e1", "e2", "e6") and qid in ("sun-1", "jup-1", "gut-1", "inj-1"):
                    pred = par["context"].split(". ")[0].split()[-1]  # pulled to the inserted sentence
                elif set_name == "e4" and qid not in ("jup-3",):
                    pred = "the Solar System"
                elif set_name == "e3" and qid == "sun-2":
                    pred = "109 times that of Earth"
                elif qid == "inj-2":
                    pred = f"{gold} {PAYLOAD_IMG}"
                else:
                    pred = gold
                out[qid] = pred
    return out


def write_audit_dir(root: Path, *, payload: bool = False, drop_predictions: tuple[str, ...] = ()) -> Path:
    """Write perturbed/ and predictions/ (no results.json) under ``root``; returns ``root``."""
    sets, items = build_sets(payload)
    pert = root / "perturbed"
    preds = root / "predictions"
    pert.mkdir(parents=True)
    preds.mkdir()
    for name, obj in sets.items():
        (pert / f"{name}.json").write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
        if name not in drop_predictions:
            (preds / f"{name}.json").write_text(json.dumps(predict(name, obj), ensure_ascii=False), encoding="utf-8")
    n = {name: sum(len(p["qas"]) for a in obj["data"] for p in a["paragraphs"]) for name, obj in sets.items()}
    manifest = {
        "mrclens_version": "0.1.0", "seed": 0, "source": {"file": "hand-made.json", "sha256": "0" * 64},
        "pipeline": "hand-made",
        "sets": {"original": {"file": "original.json", "n": n["original"]},
                 "original-truncated": {"file": "original-truncated.json", "n": n["original-truncated"],
                                        "paragraphs_total": len(sets["original"]["data"]),
                                        "dropped": {"answer sentence is the only non-empty unit": 1}}},
        "ablations": {},
    }
    for aid, cat in CATEGORY.items():
        recs = items[aid]
        unchanged: dict[str, int] = {}
        for r in recs.values():
            if not r["changed"]:
                unchanged[r["reason"]] = unchanged.get(r["reason"], 0) + 1
        eval_set = "full" if aid in ("e3", "e4", "e5") else "truncated"
        manifest["ablations"][aid] = {
            "name": INSERT_ABLATIONS[aid][0] if aid in INSERT_ABLATIONS else {"e3": "shuffle sentences", "e4": "interrogatives only", "e5": "shuffle question words"}[aid],
            "category": cat, "eval_set": eval_set,
            "baseline_set": "original" if eval_set == "full" else "original-truncated",
            "description": f"hand-made {aid}", "bias_signal": SIGNAL[aid], "file": f"{aid}.json",
            "n": n[aid], "changed": sum(1 for r in recs.values() if r["changed"]), "unchanged": unchanged, "items": recs,
        }
    (pert / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    return root


_WORD = re.compile(r"\w+")


def overlap_model(squad: dict) -> dict[str, str]:
    """Answer with the first four words, not in the question, of the sentence sharing most words with it.

    A deliberately shallow reader: it is steered by lexical overlap, so inserting the question
    into the context (e1) must hurt it.
    """
    out = {}
    for article in squad["data"]:
        for par in article["paragraphs"]:
            sentences = [s for s in re.split(r"(?<=[.!?])\s+", par["context"]) if s]
            for qa in par["qas"]:
                q = {w.lower() for w in _WORD.findall(qa["question"])}
                best = max(sentences, key=lambda s: len(q & {w.lower() for w in _WORD.findall(s)}))
                rest = [w for w in best.split() if w.strip(".,;:!?\"'()").lower() not in q]
                out[qa["id"]] = " ".join(rest[:4])
    return out


def overlap_sentence_reader(squad: dict) -> dict[str, str]:
    """A simulated shortcut reader: it knows each question's first gold answer, but gives it only when
    the answer lies in the sentence sharing most words with the question; otherwise it answers like
    :func:`overlap_model` from that sentence.

    Strong on data where answers sit in the most similar sentence (about 80 % of SQuAD v1.1's), and
    misled exactly by what the Similarity ablations do (a sentence repeating the question), so its
    drops can be read against a reference; it is a test device, not a model.
    """
    out = overlap_model(squad)
    for article in squad["data"]:
        for par in article["paragraphs"]:
            context = par["context"]
            bounds = [0] + [m.end() for m in re.finditer(r"(?<=[.!?])\s+", context)] + [len(context)]
            spans = [(s, e) for s, e in zip(bounds, bounds[1:]) if context[s:e].strip()]
            for qa in par["qas"]:
                if not qa.get("answers"):
                    continue
                q = {w.lower() for w in _WORD.findall(qa["question"])}
                s, e = max(spans, key=lambda sp: len(q & {w.lower() for w in _WORD.findall(context[sp[0]:sp[1]])}))
                gold = qa["answers"][0]
                if s <= gold["answer_start"] < e:
                    out[qa["id"]] = gold["text"]
    return out


#: How far :func:`shortcut_reference` moves the reference's drops of the Similarity and Question probes towards less of
#: the shortcut (points of relative drop).
SHORTCUT_SHIFT = {"e1": -40.0, "e2": -40.0, "e4": 40.0, "e5": 40.0}


def shortcut_reference():
    """The bundled reference with its ``quick`` audit's e1/e2 drops lowered and e4/e5 drops raised by
    :data:`SHORTCUT_SHIFT`: a test device. :func:`overlap_sentence_reader` on three articles differs from the real
    reference by about +23 [-1, +47] points on Similarity and +28 [+5, +50] on Question, which the minimum-effect test
    (issue 54: "more" only beyond the band, read with Student's t on the structure term's few degrees of freedom)
    cannot call "more"; against this reference its shortcut reads beyond the band, so the surfaces' "more" can be
    tested on a real audit.

    Returns:
        ``(reference, choice)``: the :class:`~mrclens.artifacts.reference.Reference` and its ``quick``
        :class:`~mrclens.artifacts.reference.ReferenceChoice`.
    """
    from dataclasses import replace

    from mrclens.scoring.reference_builder import read_any_reference

    reference, _ = read_any_reference(None)
    quick = reference.audits["quick"]
    moved = {aid: replace(d, value=d.value + SHORTCUT_SHIFT.get(aid, 0.0), ci_low=d.ci_low + SHORTCUT_SHIFT.get(aid, 0.0),
                          ci_high=d.ci_high + SHORTCUT_SHIFT.get(aid, 0.0)) for aid, d in quick.ablations.items()}
    reference = replace(reference, audits={**reference.audits, "quick": replace(quick, ablations=moved)})
    return reference, reference.audit_for("quick")
