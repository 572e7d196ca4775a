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
    # English written as datasets hold it (issue 42): an article's header (title, URL, authors, DOI,
    # licence lines) before its abstract, HTML payloads around the text, and a pronunciation in IPA.
    "en-markup": [
        ("Functional Variants in a Receptor Gene Are Associated with Mother-to-Child Transmission\n\n"
         "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC0000001/\n\n"
         "Mwamba, Boniface; Okello, Grace; Lindqvist, Anna; Ferreira, João; Nguyễn, Thị Hương; Kamau, Wanjiru; "
         "Moreau, Étienne; Rossi, Giulia; Kowalczyk, Łukasz; Ahmadi, Leyla; Tanaka, Hiroshi; Adeyemi, Oluwaseun; "
         "Silva, Mariana; Johansson, Erik; Novák, Tereza; Haddad, Karim; Papadopoulos, Eleni; Müller, Jürgen; "
         "Okonkwo, Chidi; Van der Berg, Pieter; Fernández, Lucía; Hussain, Imran; Ivanova, Olga\n"
         "Plos One 2009 · DOI:10.1371/journal.pone.0000001 · License: cc-by\n\n"
         "Abstract: Transmission of the virus from mother to child remains a major public health problem in many "
         "regions. We genotyped a receptor gene in 197 mothers and their infants and tested whether common "
         "variants were associated with transmission during birth or breastfeeding. Infants who carried two "
         "copies of the variant were more likely to be infected than those who carried none, and the effect was "
         "strongest for transmission during delivery.",
         [("How many mothers were genotyped in the study?", "197"),
          ("When was the effect of the variant strongest?", "during delivery")]),
        ('<div class="mw-parser-output"><table class="infobox vcard"><tr><th>Population</th><td>300,196</td></tr>'
         '<tr><th>Postcode</th><td><a href="/wiki/NE_postcode_area" title="NE postcode area">NE1-NE7</a></td></tr>'
         '<tr><th>Dialling code</th><td><a href="/wiki/List_of_dialling_codes" title="Dialling codes">0191</a></td>'
         '</tr><tr><th>Website</th><td><a rel="nofollow" class="external text" href="https://www.city.gov.uk">'
         'city.gov.uk</a></td></tr></table><p>The city grew around a <a href="/wiki/Roman_fort" title="Roman fort">Roman fort</a> and '
         "was named after the castle built in 1080 by the king&#39;s eldest son.</p><p>Its port developed in the "
         "16th century and, along with the shipyards further down the river, was among the largest "
         'shipbuilding centres of the world.</p><script>var wgPageName="City";var wgTitle="City";</script></div>',
         [("When was the castle built?", "1080"),
          ("In which century did the port develop?", "16th century")]),
        ("Tynemouth (RP: /ˈtaɪnməθ/, /ˈtaɪnmaʊθ/; locally: /ˈtɪnməθ/, /ˈtɛnməθ/ or /ˈtaɪnmʊθ/; Geordie: "
         "/ˈtinmʊθ/, /ˈtɪnmʊθ/; Northumbrian: /ˈtʁinmʊθ/, /ˈtʁɛnmʊθ/; Old English: Tinanmuþe, Tinemuða) is a town on the north bank of the "
         "river mouth, 13.7 km from the city, with a priory and a castle above the sea. The town grew when the "
         "railway arrived in 1839, and visitors still come for its beaches and its market.",
         [("When did the railway arrive in the town?", "1839"),
          ("What stands above the sea?", "a priory and a castle")]),
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
