"""Small SQuAD-format files written in the tests, in English, Spanish and Russian (issue 32).

The paragraphs are written for these tests (not copied from a dataset); each question's answer is
a span of its context, found with ``str.index`` so ``answer_start`` is exact.
"""

from __future__ import annotations

import json
from pathlib import Path

PARAGRAPHS = {
    "en": [
        ("The river flows through the old town before it reaches the sea. Fishermen have lived on its banks "
         "for centuries, and the market near the bridge still sells their catch every morning.",
         [("Where does the river flow before it reaches the sea?", "through the old town"),
          ("What does the market near the bridge sell?", "their catch")]),
        ("In 1887 the city built its first public library. The building was designed by a young architect "
         "who later became famous for his railway stations.",
         [("When did the city build its first public library?", "1887"),
          ("Who designed the building?", "a young architect")]),
        ("Bees collect nectar from flowers and turn it into honey. A single colony can hold tens of thousands "
         "of workers during the summer months.",
         [("What do bees turn nectar into?", "honey"),
          ("How many workers can a colony hold in summer?", "tens of thousands")]),
    ],
    "es": [
        ("El río atraviesa el casco antiguo antes de llegar al mar. Los pescadores han vivido en sus orillas "
         "durante siglos, y el mercado junto al puente todavía vende su pesca cada mañana.",
         [("¿Por dónde pasa el río antes de llegar al mar?", "el casco antiguo"),
          ("¿Qué vende el mercado junto al puente?", "su pesca")]),
        ("En 1887 la ciudad construyó su primera biblioteca pública. El edificio fue diseñado por un joven "
         "arquitecto que más tarde se hizo famoso por sus estaciones de ferrocarril.",
         [("¿Cuándo construyó la ciudad su primera biblioteca pública?", "1887"),
          ("¿Quién diseñó el edificio?", "un joven arquitecto")]),
        ("Las abejas recogen el néctar de las flores y lo convierten en miel. Una sola colonia puede albergar "
         "decenas de miles de obreras durante los meses de verano.",
         [("¿En qué convierten las abejas el néctar?", "miel"),
          ("¿Cuántas obreras puede albergar una colonia en verano?", "decenas de miles")]),
    ],
    "ru": [
        ("Река протекает через старый город, прежде чем впасть в море. Рыбаки веками жили на её берегах, "
         "а рынок у моста до сих пор каждое утро продаёт их улов.",
         [("Через что протекает река, прежде чем впасть в море?", "старый город"),
          ("Что продаёт рынок у моста?", "их улов")]),
        ("В 1887 году город построил свою первую публичную библиотеку. Здание спроектировал молодой "
         "архитектор, который позже прославился своими вокзалами.",
         [("Когда город построил свою первую публичную библиотеку?", "1887"),
          ("Кто спроектировал здание?", "молодой архитектор")]),
        ("Пчёлы собирают нектар с цветов и превращают его в мёд. Одна семья может насчитывать десятки тысяч "
         "рабочих пчёл в летние месяцы.",
         [("Во что пчёлы превращают нектар?", "мёд"),
          ("Сколько рабочих пчёл может насчитывать семья летом?", "десятки тысяч")]),
    ],
}


def squad_json(lang: str, questions_in: str | None = None) -> dict:
    """The SQuAD v1.1 object of the paragraphs in ``lang``; ``questions_in``: take the questions (and
    answers) from that language instead (only where every answer is in ``lang``'s context, else the
    context's own), e.g. English contexts with Spanish questions."""
    paragraphs = []
    for i, (context, qas) in enumerate(PARAGRAPHS[lang]):
        asked = PARAGRAPHS[questions_in][i][1] if questions_in else qas
        items = []
        for j, ((question, _), (_, answer)) in enumerate(zip(asked, qas)):
            items.append({"id": f"{lang}-{i}-{j}", "question": question,
                          "answers": [{"text": answer, "answer_start": context.index(answer)}]})
        paragraphs.append({"context": context, "qas": items})
    return {"version": "1.1", "data": [{"title": f"{lang} test", "paragraphs": paragraphs}]}


def write_squad(directory: Path, lang: str, questions_in: str | None = None) -> Path:
    """Write :func:`squad_json` to ``directory/<lang>[-q<questions_in>].json``; return the path."""
    path = Path(directory) / f"{lang}{'-q' + questions_in if questions_in else ''}.json"
    path.write_text(json.dumps(squad_json(lang, questions_in), ensure_ascii=False), encoding="utf-8")
    return path
