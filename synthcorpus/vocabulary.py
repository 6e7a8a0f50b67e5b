"""The vocabulary of the synthetic corpora: issues, effects, groups, frames, filler sentences.

Each tuple of strings lists surface forms of one meaning, canonical form first. No surface form
may appear under two meanings (a unit test checks this), so one exact text never belongs to two
ground-truth clusters.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

Forms = tuple[str, ...]
NounForms = tuple[tuple[str, bool], ...]  # (text, is_plural)


class Domain(NamedTuple):
    goods: tuple[Forms, ...]
    bads: tuple[Forms, ...]
    groups: tuple[Forms, ...]
    qualifiers: tuple[Forms, ...]
    related: tuple[str, ...]


DOMAINS: dict[str, Domain] = {
    "energy": Domain(
        goods=(
            ("energy security", "security of supply", "energy independence"),
            ("affordable electricity", "cheap power", "low energy bills"),
        ),
        bads=(
            ("carbon emissions", "CO2 emissions", "greenhouse gas emissions"),
            ("air pollution", "smog", "dirty air"),
            ("blackouts", "power cuts", "power outages"),
        ),
        groups=(
            ("rural communities", "people in rural areas", "countryside residents"),
            ("consumers", "customers", "energy users"),
            ("energy workers", "workers in the energy sector", "power plant workers"),
        ),
        qualifiers=(
            ("for electricity generation", "for generating electricity"),
            ("in new buildings", "in newly built homes"),
            ("for heating", "for home heating"),
            ("for transport", "in the transport sector"),
        ),
        related=("environment", "economy"),
    ),
    "environment": Domain(
        goods=(
            ("biodiversity", "the variety of species", "wildlife diversity"),
            ("soil quality", "soil health", "fertile soil"),
        ),
        bads=(
            ("plastic waste", "plastic pollution", "plastic litter"),
            ("deforestation", "the loss of forests", "forest destruction"),
            ("water pollution", "polluted water", "contaminated water"),
        ),
        groups=(
            ("farmers", "growers", "agricultural workers"),
            ("coastal communities", "people living on the coast", "coastal towns"),
        ),
        qualifiers=(
            ("in cities", "in urban areas"),
            ("in national parks", "in protected areas"),
            ("on farms", "in agriculture"),
            ("in the oceans", "at sea"),
        ),
        related=("health", "energy"),
    ),
    "justice": Domain(
        goods=(
            ("public safety", "the safety of the public", "safety on our streets"),
            ("civil liberties", "civil rights", "individual freedoms"),
            ("trust in the courts", "confidence in the justice system", "faith in the courts"),
        ),
        bads=(
            ("crime", "criminal activity", "crime rates"),
            ("wrongful convictions", "miscarriages of justice", "convictions of innocent people"),
            ("gun violence", "shootings", "gun deaths"),
        ),
        groups=(
            ("victims of crime", "crime victims", "people harmed by crime"),
            ("prisoners", "inmates", "convicts"),
            ("police officers", "law enforcement officers", "the police"),
            ("innocent people", "innocent citizens", "the innocent"),
        ),
        qualifiers=(
            ("for violent crimes", "for violent offences"),
            ("for juveniles", "for young offenders"),
            ("at the federal level", "nationwide"),
            ("for drug offences", "for drug crimes"),
        ),
        related=("society", "politics"),
    ),
    "health": Domain(
        goods=(
            ("public health", "the health of the population", "population health"),
            ("life expectancy", "lifespans", "how long people live"),
            ("mental health", "psychological well-being", "mental well-being"),
        ),
        bads=(
            ("obesity", "excess weight", "being overweight"),
            ("health care costs", "medical costs", "the cost of health care"),
            ("addiction", "drug dependence", "substance abuse"),
        ),
        groups=(
            ("patients", "sick people", "people who are ill"),
            ("doctors", "physicians", "medical professionals"),
            ("children", "kids", "minors"),
        ),
        qualifiers=(
            ("for minors", "for under-18s"),
            ("in public hospitals", "in state hospitals"),
            ("for pregnant women", "for expectant mothers"),
            ("in care homes", "in nursing homes"),
        ),
        related=("economy", "society"),
    ),
    "education": Domain(
        goods=(
            ("academic performance", "school results", "academic achievement"),
            ("equal opportunities", "equality of opportunity", "a level playing field"),
            ("school discipline", "discipline in class", "good behaviour in class"),
        ),
        bads=(
            ("bullying", "school bullying", "harassment at school"),
            ("stress", "anxiety", "pressure on young minds"),
            ("dropout rates", "school dropouts", "early school leaving"),
        ),
        groups=(
            ("students", "pupils", "learners"),
            ("teachers", "educators", "school teachers"),
            ("parents", "mothers and fathers", "families with children"),
        ),
        qualifiers=(
            ("in public schools", "in state schools"),
            ("at universities", "in higher education"),
            ("in primary schools", "in elementary schools"),
            ("in high schools", "in secondary schools"),
        ),
        related=("society", "technology"),
    ),
    "economy": Domain(
        goods=(
            ("economic growth", "growth of the economy", "GDP growth"),
            ("living standards", "the standard of living", "prosperity"),
        ),
        bads=(
            ("unemployment", "joblessness", "job losses"),
            ("inequality", "income inequality", "the gap between rich and poor"),
            ("poverty", "destitution", "hardship"),
            ("inflation", "rising prices", "price increases"),
            ("public debt", "government debt", "the national debt"),
        ),
        groups=(
            ("employers", "business owners", "companies"),
            ("low-wage workers", "people on low wages", "the working poor"),
            ("investors", "shareholders", "savers"),
        ),
        qualifiers=(
            ("in the service sector", "in the service industry"),
            ("in rich countries", "in wealthy nations"),
            ("at the state level", "in individual states"),
            ("for large corporations", "for big companies"),
        ),
        related=("society", "politics"),
    ),
    "technology": Domain(
        goods=(
            ("innovation", "technological progress", "new inventions"),
            ("productivity", "efficiency", "output per worker"),
            ("privacy", "personal privacy", "data privacy"),
        ),
        bads=(
            ("misinformation", "fake news", "false information"),
            ("cybercrime", "online crime", "hacking"),
            ("road accidents", "traffic accidents", "car crashes"),
        ),
        groups=(
            ("internet users", "online users", "web users"),
            ("teenagers", "adolescents", "teens"),
            ("drivers", "motorists", "road users"),
        ),
        qualifiers=(
            ("for children", "for young children"),
            ("in schools", "in classrooms"),
            ("in the workplace", "at work"),
            ("in the military", "in the armed forces"),
        ),
        related=("economy", "education"),
    ),
    "society": Domain(
        goods=(
            ("animal welfare", "the well-being of animals", "animal wellbeing"),
            ("social cohesion", "community spirit", "social unity"),
            ("equality", "fairness", "equal treatment"),
        ),
        bads=(
            ("discrimination", "prejudice", "unequal treatment"),
            ("animal suffering", "cruelty to animals", "animal cruelty"),
            ("loneliness", "social isolation", "isolation"),
        ),
        groups=(
            ("women", "girls and women", "female citizens"),
            ("religious people", "believers", "people of faith"),
            ("animals", "wildlife", "animals in captivity"),
        ),
        qualifiers=(
            ("in sports", "in professional sports"),
            ("for entertainment", "for fun"),
            ("in public places", "in public spaces"),
            ("for profit", "for commercial purposes"),
        ),
        related=("justice", "health"),
    ),
    "politics": Domain(
        goods=(
            ("voter turnout", "electoral participation", "turnout at elections"),
            ("accountability", "government accountability", "political accountability"),
            ("national security", "the security of the nation", "homeland security"),
        ),
        bads=(
            ("corruption", "bribery", "graft"),
            ("polarisation", "political division", "partisan division"),
            ("war", "armed conflict", "military conflict"),
        ),
        groups=(
            ("voters", "the electorate", "citizens who vote"),
            ("politicians", "elected officials", "lawmakers"),
            ("soldiers", "service members", "troops"),
        ),
        qualifiers=(
            ("in national elections", "in general elections"),
            ("in local elections", "in municipal elections"),
            ("in the European Union", "in the EU"),
            ("for members of parliament", "for MPs"),
        ),
        related=("economy", "justice"),
    ),
}

# Groups every domain can use.
COMMON_GROUPS: tuple[Forms, ...] = (
    ("taxpayers", "tax payers", "people who pay taxes"),
    ("poor families", "low-income households", "families on low incomes"),
    ("young people", "younger people", "people under 25"),
    ("future generations", "generations to come", "our grandchildren"),
    ("ordinary citizens", "ordinary people", "average citizens"),
    ("small businesses", "small firms", "small companies"),
    ("the elderly", "elderly people", "senior citizens"),
    ("minorities", "minority groups", "ethnic minorities"),
    ("workers", "employees", "working people"),
)

# The issues debated, "domain: form | form | form"; a trailing "+" marks a plural form, for
# agreement ("wind farms reduce ..."). Parsed once, lazily, by issues().
ISSUE_TABLE: tuple[str, ...] = (
    "energy: nuclear power | nuclear energy | atomic power",
    "energy: fracking | hydraulic fracturing | shale gas drilling",
    "energy: wind farms+ | wind parks+ | onshore wind turbines+",
    "energy: coal power | coal-fired electricity | coal energy",
    "energy: solar subsidies+ | subsidies for solar panels+ | solar power subsidies+",
    "energy: electric cars+ | electric vehicles+ | battery-powered cars+",
    "energy: fossil fuels+ | carbon-based fuels+ | oil, gas and coal+",
    "energy: a carbon tax | carbon pricing | a tax on carbon",
    "environment: plastic bags+ | single-use plastic bags+ | disposable bags+",
    "environment: bottled water | water in plastic bottles | packaged water",
    "environment: GMO crops+ | genetically modified crops+ | GM crops+",
    "environment: pesticides+ | chemical pesticides+ | crop sprays+",
    "environment: meat consumption | eating meat | meat eating",
    "environment: trophy hunting | big-game hunting | hunting for trophies",
    "justice: the death penalty | capital punishment | the execution of criminals",
    "justice: mass surveillance | government surveillance | bulk data collection",
    "justice: concealed handguns+ | concealed carry of guns | hidden firearms+",
    "justice: recreational marijuana | recreational cannabis | marijuana for recreational use",
    "justice: private prisons+ | for-profit prisons+ | privately run prisons+",
    "justice: plea bargaining | plea deals+ | negotiated guilty pleas+",
    "justice: police body cameras+ | body-worn cameras for police+ | bodycams+",
    "health: mandatory vaccination | compulsory vaccination | vaccine mandates+",
    "health: euthanasia | assisted suicide | assisted dying",
    "health: universal health care | single-payer health care | free public health care",
    "health: a sugar tax | a tax on sugary drinks | a soda tax",
    "health: vegetarianism | a vegetarian diet | meat-free eating",
    "health: e-cigarettes+ | electronic cigarettes+ | vaping",
    "health: opt-out organ donation | presumed consent to donation | an opt-out donor system",
    "health: alternative medicine | complementary medicine | unconventional treatments+",
    "education: school uniforms+ | mandatory school uniforms+ | uniform policies+",
    "education: homeschooling | home education | schooling at home",
    "education: standardized testing | standardized tests+ | high-stakes exams+",
    "education: free college tuition | tuition-free university | free higher education",
    "education: single-sex schools+ | gender-segregated schools+ | single-gender schools+",
    "education: homework | home assignments+ | after-school assignments+",
    "education: charter schools+ | independent public schools+ | publicly funded private schools+",
    "education: year-round schooling | year-round school calendars+ | shorter summer holidays+",
    "economy: universal basic income | a basic income | an unconditional basic income",
    "economy: a higher minimum wage | raising the minimum wage | minimum wage increases+",
    "economy: free trade | trade liberalisation | open markets+",
    "economy: a wealth tax | taxes on the rich+ | a tax on large fortunes",
    "economy: rent control | rent caps+ | limits on rent increases+",
    "economy: cryptocurrency | cryptocurrencies+ | digital currencies+",
    "economy: outsourcing | offshoring | moving jobs abroad",
    "economy: tipping | gratuities+ | service tips+",
    "technology: social media | social networks+ | online platforms+",
    "technology: artificial intelligence | AI systems+ | machine learning systems+",
    "technology: self-driving cars+ | autonomous vehicles+ | driverless cars+",
    "technology: video games+ | computer games+ | gaming",
    "technology: genetic engineering | gene editing | genetic modification",
    "technology: space exploration | space travel | crewed space missions+",
    "technology: online voting | internet voting | e-voting",
    "technology: smartphones in class+ | mobile phones in class+ | phones in lessons+",
    "society: animal testing | animal experiments+ | testing on animals",
    "society: zoos+ | zoological parks+ | animal parks+",
    "society: gambling | betting | casino gambling",
    "society: child beauty pageants+ | beauty contests for children+ | pageants for kids+",
    "society: affirmative action | positive discrimination | diversity quotas+",
    "society: same-sex marriage | gay marriage | marriage equality",
    "society: large-scale immigration | mass immigration | high immigration",
    "society: bullfighting | bull fights+ | the bullfighting tradition",
    "politics: compulsory voting | mandatory voting | obligatory voting",
    "politics: term limits+ | limits on terms in office+ | term restrictions+",
    "politics: the electoral college | the electoral system | indirect presidential elections+",
    "politics: a voting age of 16 | votes at 16+ | voting at sixteen",
    "politics: the monarchy | the royal family | a hereditary head of state",
    "politics: foreign aid | development aid | overseas aid",
    "politics: military drones+ | armed drones+ | drone warfare",
    "politics: nuclear weapons+ | a nuclear arsenal | atomic weapons+",
)

REGIONS: tuple[Forms, ...] = (
    ("in the United States", "in the US", "in America"),
    ("in the United Kingdom", "in the UK", "in Britain"),
    ("in Germany",),
    ("in France",),
    ("in India",),
    ("in Canada",),
    ("in Australia",),
    ("in Japan",),
    ("in Brazil",),
    ("in South Africa",),
    ("in Europe", "across Europe"),
    ("in developing countries", "in the developing world", "in poorer countries"),
    ("in China",),
    ("in Mexico",),
    ("in Nigeria",),
)

TIMES: tuple[Forms, ...] = (
    ("immediately", "right away", "without delay"),
    ("by 2030", "before 2030", "by the end of this decade"),
    ("gradually", "step by step", "over several years"),
)

# Adjuncts of premise meanings about a group; part of the meaning.
ADJUNCTS: tuple[Forms, ...] = (
    ("in the long run", "in the long term", "over time"),
    ("in practice", "in reality", "in real life"),
    ("in most cases", "in the majority of cases", "most of the time"),
)


class Frame(NamedTuple):
    name: str
    polarity: int  # +1: for the issue, -1: against it
    slot: str  # "good" | "bad" | "group" | "" (none)
    templates: tuple[str, ...]
    timed: bool = False  # policy claims may carry a time adjunct ("immediately")


# Templates use {X} (the issue), {E} (an effect), {G} (a group) and agreement with X:
# {s} (improve{s}), {is}, {has}, {does}, {its}.
PREMISE_FRAMES: tuple[Frame, ...] = (
    Frame("improve", +1, "good", (
        "{X} improve{s} {E}", "{X} lead{s} to better {E}", "{X} {has} a positive effect on {E}",
        "{X} boost{s} {E}", "{X} make{s} {E} better",
    )),
    Frame("reduce", +1, "bad", (
        "{X} reduce{s} {E}", "{X} lower{s} {E}", "{X} lead{s} to less {E}", "{X} cut{s} {E}",
        "{X} help{s} to reduce {E}",
    )),
    Frame("benefit", +1, "group", (
        "{X} benefit{s} {G}", "{X} {is} good for {G}", "{X} help{s} {G}", "{G} benefit from {X}",
    )),
    Frame("protect_rights", +1, "group", (
        "{X} protect{s} the rights of {G}", "{X} safeguard{s} the rights of {G}",
        "the rights of {G} are protected by {X}",
    )),
    Frame("create_jobs", +1, "group", (
        "{X} create{s} jobs for {G}", "{X} provide{s} employment for {G}",
        "{X} bring{s} new jobs to {G}",
    )),
    Frame("freedom", +1, "group", (
        "{X} give{s} {G} more freedom", "{X} expand{s} the freedom of {G}",
        "{G} gain more freedom through {X}",
    )),
    Frame("save_money", +1, "group", (
        "{X} save{s} money for {G}", "{X} lower{s} the costs for {G}",
        "{G} save money thanks to {X}",
    )),
    Frame("harm", -1, "good", (
        "{X} harm{s} {E}", "{X} damage{s} {E}", "{X} {has} a negative effect on {E}",
        "{X} undermine{s} {E}", "{X} make{s} {E} worse",
    )),
    Frame("increase", -1, "bad", (
        "{X} increase{s} {E}", "{X} lead{s} to more {E}", "{X} drive{s} up {E}",
        "{X} cause{s} more {E}", "{X} fuel{s} {E}",
    )),
    Frame("no_evidence", -1, "good", (
        "there is no evidence that {X} improve{s} {E}",
        "no study has shown that {X} improve{s} {E}", "nothing proves that {X} improve{s} {E}",
    )),
    Frame("too_expensive", -1, "group", (
        "{X} {is} too expensive for {G}", "{X} cost{s} {G} too much", "{G} cannot afford {X}",
        "{X} {is} unaffordable for {G}",
    )),
    Frame("violate_rights", -1, "group", (
        "{X} violate{s} the rights of {G}", "{X} infringe{s} on the rights of {G}",
        "the rights of {G} are violated by {X}",
    )),
    Frame("unfair", -1, "group", (
        "{X} {is} unfair to {G}", "{X} treat{s} {G} unfairly", "{X} discriminate{s} against {G}",
    )),
    Frame("destroy_jobs", -1, "group", (
        "{X} destroy{s} jobs for {G}", "{X} cost{s} {G} their jobs",
        "{G} lose their jobs because of {X}",
    )),
    Frame("burden", -1, "group", (
        "{X} put{s} a heavy burden on {G}", "{X} place{s} a great burden on {G}",
        "{X} {is} a heavy burden for {G}",
    )),
)  # fmt: skip

CLAIM_FRAMES: tuple[Frame, ...] = (
    Frame("legal", +1, "", (
        "{X} should be legal", "{X} should be allowed", "{X} ought to be permitted",
        "we should legalise {X}",
    ), timed=True),
    Frame("expand", +1, "", (
        "we should expand {X}", "{X} should be expanded", "governments should expand {X}",
    ), timed=True),
    Frame("fund", +1, "", (
        "governments should fund {X}", "{X} should receive public funding",
        "public money should be spent on {X}", "the state should pay for {X}",
    ), timed=True),
    Frame("net_good", +1, "", (
        "{X} {does} more good than harm", "the benefits of {X} outweigh {its} costs",
        "{X} {is} beneficial overall", "overall, {X} {is} a good thing",
    )),
    Frame("good_for", +1, "good", (
        "{X} {is} good for {E}", "{X} {is} beneficial for {E}", "{X} promote{s} {E}",
    )),
    Frame("mandatory", +1, "group", (
        "{X} should be mandatory for {G}", "{X} should be compulsory for {G}",
        "{G} should be required to accept {X}",
    )),
    Frame("ban", -1, "", (
        "{X} should be banned", "{X} should be prohibited", "we should ban {X}",
        "{X} must be outlawed",
    ), timed=True),
    Frame("abandon", -1, "", (
        "we should abandon {X}", "{X} should be abolished", "it is time to get rid of {X}",
        "{X} should be phased out",
    ), timed=True),
    Frame("defund", -1, "", (
        "governments should stop funding {X}", "{X} should not receive public money",
        "taxpayers should not pay for {X}",
    ), timed=True),
    Frame("net_bad", -1, "", (
        "{X} {does} more harm than good", "the costs of {X} outweigh {its} benefits",
        "{X} {is} harmful overall", "overall, {X} {is} a bad thing",
    )),
    Frame("bad_for", -1, "good", (
        "{X} {is} bad for {E}", "{X} {is} harmful to {E}", "{X} threaten{s} {E}",
    )),
    Frame("optional", -1, "group", (
        "{X} should not be forced on {G}", "{X} should be optional for {G}",
        "{G} should be free to refuse {X}",
    )),
    Frame("solution", +1, "bad", (
        "{X} {is} the solution to {E}", "{X} can solve the problem of {E}",
        "{X} {is} the answer to {E}",
    )),
    Frame("to_blame", -1, "bad", (
        "{X} {is} to blame for {E}", "{X} {is} responsible for {E}", "{X} {is} behind {E}",
    )),
    Frame("promote", +1, "", (
        "governments should promote {X}", "{X} should be encouraged", "we should encourage {X}",
    ), timed=True),
    Frame("regulate", -1, "", (
        "{X} should be strictly regulated", "{X} needs stricter regulation",
        "governments should tightly regulate {X}",
    ), timed=True),
)  # fmt: skip

# Hedges change the wording, not the meaning.
HEDGES_THAT = (
    "I believe that", "I think that", "it is clear that", "it seems that",
    "evidence suggests that", "there is no doubt that", "we all know that", "it is obvious that",
    "I would argue that", "the fact is that",
)  # fmt: skip
HEDGES_COMMA = (
    "arguably,", "clearly,", "frankly,", "honestly,", "in my opinion,", "in my view,",
    "without a doubt,", "of course,", "simply put,", "quite simply,",
)  # fmt: skip
HEDGES_AFTER = (", in my opinion", ", I believe", ", as far as I can tell", ", I would say")

PLACES = (
    "Texas", "California", "New York", "Ohio", "Florida", "Sweden", "Norway", "Denmark", "Germany",
    "France", "Spain", "Italy", "Poland", "Japan", "South Korea", "Singapore", "Brazil", "Chile",
    "Mexico", "Canada", "Australia", "New Zealand", "India", "Kenya", "Nigeria", "Egypt",
    "Scotland", "Ireland", "the Netherlands", "Switzerland", "Portugal", "Finland",
)  # fmt: skip
ORGS = (
    "the World Health Organization", "the OECD", "the World Bank", "Harvard University",
    "Oxford University", "the Pew Research Center", "the National Academy of Sciences",
    "a government commission", "the United Nations", "an independent think tank",
    "the European Commission", "Stanford University", "the RAND Corporation",
    "a parliamentary committee", "the Brookings Institution", "a team of economists",
)  # fmt: skip

# Sentences that elaborate on a premise meaning; {E}/{G} are the meaning's own slots where it
# has them, else context words of the topic.
ELABORATIONS = (
    "For example, {pct} percent of {G} in {place} reported a change after {X} {was} introduced "
    "in {year}.",
    "A {year} study by {org} looked at the effect of {X} on {E} in {place}.",
    "Between {year} and {year2}, {E} in {place} changed by {pct} percent.",
    "Look at {place}, where {X} {has} been debated since {year}.",
    "According to {org}, {pct} percent of {G} agree with this.",
    "This matters because all of us are affected by {E}.",
    "{G} in {place} know this from their own experience.",
    "In {year}, {org} published a report on {X} and {E}.",
    "We cannot ignore what happened in {place} in {year}.",
    "The numbers from {place} speak for themselves: {pct} percent.",
    "Nobody has explained why {place} saw {pct} percent more complaints from {G}.",
    "My source is a {year} paper by {org}.",
    "Even {org} admitted in {year} that there is a problem with {E}.",
    "If you ask {G}, most of them will tell you the same.",
    "The debate about {X} in {place} shows exactly this.",
    "Surveys from {year} found that {pct} percent of {G} care about {E}.",
)
DEBATE_TALK = (
    "My opponent has not addressed this point.",
    "Thank you for accepting this debate.",
    "I look forward to my opponent's response.",
    "Let me explain why.",
    "The burden of proof is on my opponent.",
    "I will now turn to my opponent's rebuttals.",
    "This is simply common sense.",
    "Extend all of my arguments.",
    "Sources are listed in the comments.",
    "That is all for this round.",
    "My opponent dropped this argument in the last round.",
    "I would like to clarify my position.",
    "Please read my sources before voting.",
    "This point still stands.",
    "Vote {side}!",
    "I urge the voters to vote {side}.",
    "Thanks again for a great debate.",
    "Consider the following.",
)
OPENERS = (
    "Thank you for the quick response.",
    "I accept this debate.",
    "First, some definitions.",
    "Let me start with my main argument.",
    "Good luck to my opponent.",
)

PORTAL_FORMATS: dict[str, tuple[str, str]] = {
    # portal -> (sourceTitle template, sourceUrl template); {title}, {slug}, {Slug}, {n}, {domain}
    "debate.org": ("Debate Argument: {title} | Debate.org", "https://www.debate.org/debates/{Slug}/{n}/"),
    "debatepedia.org": ("Debate: {title} - Debatepedia", "http://www.debatepedia.org/en/index.php/Debate:_{Slug_}"),
    "debatewise.org": ("{title} - Debatewise", "https://debatewise.org/debates/{num}-{slug}/"),
    "idebate.org": ("{title} | idebate.org", "https://idebate.org/debatabase/{domain}/{slug}"),
}  # fmt: skip
PORTALS = tuple(PORTAL_FORMATS)

AGREE_SINGULAR = {"s": "s", "is": "is", "has": "has", "does": "does", "its": "its", "was": "was"}
AGREE_PLURAL = {"s": "", "is": "are", "has": "have", "does": "do", "its": "their", "was": "were"}


@cache
def issues() -> tuple[tuple[str, NounForms], ...]:
    """The issue table as ``(domain, ((form, is_plural), ...))``."""
    table = []
    for row in ISSUE_TABLE:
        domain, forms = row.split(": ", 1)
        parsed = tuple((f.rstrip("+"), f.endswith("+")) for f in forms.split(" | "))
        table.append((domain, parsed))
    return tuple(table)
