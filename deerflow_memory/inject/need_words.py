"""The words of needs: allergies, diets, medical and accessibility needs, English and Chinese.

:data:`EN_NEEDS` and :data:`ZH_NEEDS` find a need's word in a fact's text;
:mod:`deerflow_memory.inject.constraints` then reads each match's clause to
set aside the words that name a topic of work, a thing or a set phrase
("studies medicine", "cane sugar", "拐杖糖"). The words go kind by kind:
allergies, diets (therapeutic ones too: low FODMAP, renal, soft-food; and
any diet kept to: "follows a paleo diet"), conditions (chronic and
neurodevelopmental: migraines, IBS, ADHD, autism; paralysis, stroke, heart,
mental health), medicines and their classes (metformin, statins, blood
thinners, the commonest named long-term medicines), medical and sensory
devices (CPAP, cochlear implants), mobility aids (cane, walker, guide dog,
step-free access), sight, hearing and reading needs (braille, lip-reading);
needs said as a reaction ("breaks out in hives", "reacts badly to"), a
pregnancy or nursing ("expecting a baby", 怀了二胎), a fast of faith
("fasts during Ramadan", 过午不食, 全素), OCD and post-traumatic stress.
Words that also have a plain sense are spelled with their need's context
("had a stroke", not "stroke"; 瘫痪在床, not 瘫痪 "the server went down").
"""

from __future__ import annotations

import re

__all__ = ["EN_NEEDS", "ZH_NEEDS", "alternation"]

_FOOD = (
    r"(?:meat|pork|beef|lamb|chicken|poultry|fish|seafood|shellfish|shrimp|prawns?|crab|"
    r"lobster|eggs?|dairy|milk|cheese|butter|lactose|gluten|wheat|bread|soy|sesame|"
    r"nuts?|peanuts?|almonds?|walnuts?|cashews?|alcohol|beer|wine|liquor|caffeine|coffee|"
    r"tea|sugar|sweets|salt|sodium|spicy|garlic|onions?|mushrooms?|animal products?|"
    r"red meat|fried food|carbs?|sugary)"
)


def alternation(*parts: str) -> str:
    """``parts`` as one case-insensitive alternation, grouped by their first letter.

    Python's regex engine tries a case-insensitive alternation's ~250 branches
    one by one at every word; grouped as ``[aA](?i:llergic|naphylaxis|...)`` it
    tests ~26 letter sets and enters one group (the need's words cost ~3x less).
    Each part is one branch that starts with a plain ASCII letter.

    Raises:
        ValueError: a part does not start with a plain letter (a module bug).
    """
    groups: dict[str, list[str]] = {}
    for part in parts:
        first = part[:1].lower()
        if not ("a" <= first <= "z") or part[1:2] in ("?", "*", "+", "{"):
            raise ValueError(f"a need's pattern must start with a plain letter: {part!r}")
        groups.setdefault(first, []).append(part[1:])
    return "|".join(f"[{k}{k.upper()}](?i:{'|'.join(rest)})" for k, rest in groups.items())


_REFUSED = (
    r"\s+(?:\w+\s+)?(?:eat|eats|eating|drink|drinks|drinking|consume|consumes|touch|touches)\b"
)
_AVOIDED = rf"\s+(?:\w+\s+){{0,2}}{_FOOD}"
EN_NEEDS = re.compile(
    r"\b(?:"
    + alternation(
        # allergies and intolerances
        r"allerg\w*",
        r"intoleran\w*",
        r"anaphyla\w*",
        r"epi-?pens?",
        r"coeliac",
        r"celiac",
        r"sensitiv(?:e|ity) to",
        r"can(?:no|')t (?:digest|tolerate)",
        # diets, therapeutic ones too (low FODMAP, renal, soft-food)
        *(rf"{diet}(?:s|ism)?" for diet in ("vegan", "vegetarian", "pescatarian")),
        r"halal",
        r"kosher",
        r"teetotal\w*",
        r"keto(?:genic)?",
        r"fodmaps?",
        r"low[- ](?:sodium|salt|sugar|carb(?:ohydrate)?s?|fat|protein|potassium|purine|"
        r"residue|fib(?:re|er)|histamine|oxalate|cholesterol|iodine|gi|fodmaps?)",
        *(
            rf"{food}[- ]free"
            for food in (
                "gluten",
                "dairy",
                "sugar",
                "nut",
                "peanut",
                "egg",
                "lactose",
                "wheat",
                "soy",
                "meat",
                "alcohol",
                "caffeine",
                "grain",
            )
        ),
        *(
            rf"{kind} diets?"
            for kind in (
                "renal",
                "kidney",
                "cardiac",
                "soft(?:[- ]food)?",
                "liquid",
                "pur[eé]ed?",
                "elimination",
                "bland",
                "gout",
                "diabetic",
                "dash",
            )
        ),
        *(
            rf"{verb} an? (?:[\w-]+ ){{0,2}}diet"
            for verb in (
                "follows?",
                "following",
                "on",
                "sticks? to",
                "sticking to",
                "keeps? to",
                "stays? on",
                "staying on",
            )
        ),
        *(
            rf"{refusal}{_REFUSED}"
            for refusal in (
                "does(?:n't| not)",
                "do(?:n't| not)",
                "never",
                "can(?:no|')t",
                "won't",
                "will not",
                "must not",
                "mustn't",
                "no longer",
                "stopped",
                "gave up",
            )
        ),
        *(
            rf"{verb}{_AVOIDED}"
            for verb in (
                "avoids?",
                "avoiding",
                "abstain(?:s|ing)? from",
                "cut(?:s|ting)? out",
                "only eats?",
                "aversion to",
                "stay(?:s|ing)? away from",
                "can(?:no|')t have",
            )
        ),
        rf"no {_FOOD}",
        # medical: conditions, chronic and neurodevelopmental ones too
        r"diabet\w*",
        r"pre-?diabet\w*",
        r"pregnan\w*",
        r"epilep\w*",
        r"seizures?",
        r"asthma\w*",
        r"hypertension",
        r"high blood pressure",
        r"heart (?:condition|disease|problems?|failure|attacks?)",
        r"coronary (?:heart|artery) disease",
        r"angina",
        # a stroke of the brain, not of luck or of a swimmer
        r"had an? (?:[\w-]+ )?stroke(?! of\b)",
        r"stroke survivor",
        *(
            rf"{when} (?:the|his|her|their|my|a) stroke(?! of\b)"
            for when in ("since", "after", "before")
        ),
        # paralysed said of a body ("by a stroke"), not of a city ("by snow") or a decision
        r"paraly[sz]ed (?:from|below|down|on|in|after|since)",
        *(
            rf"{verb} (?:partly |partially )?paraly[sz]ed(?! by (?!an? ))"
            for verb in ("is", "was", "been", "left")
        ),
        r"hemiplegi\w*",
        r"paraplegi\w*",
        r"quadriplegi\w*",
        r"tetraplegi\w*",
        r"spinal (?:cord )?injur(?:y|ies)",
        r"cerebral palsy",
        r"spina bifida",
        r"down'?s syndrome",
        r"muscular dystrophy",
        r"dementia",
        r"osteoporosis",
        # everyday ailments that still shape a plan: travel, back, cholesterol
        r"motion sickness",
        r"travel sickness",
        r"seasick\w*",
        r"carsick\w*",
        r"hay fever",
        r"bad back",
        r"back problems?",
        r"bad (?:knees?|hips?)",
        r"slipped discs?",
        r"herniated discs?",
        r"sciatica",
        r"high cholesterol",
        r"walks? with an? stick",
        r"diagnosed with",
        *(rf"{joint} replacements?" for joint in ("knee", "hip", "joint")),
        r"can(?:no|')t kneel",
        # sight conditions
        r"macular degeneration",
        r"glaucoma",
        r"cataracts?",
        r"retinitis pigmentosa",
        r"partially sighted",
        r"sight (?:loss|impair\w*)",
        r"alzheimer'?s",
        r"hiv",
        r"hepatitis",
        r"cirrhosis",
        r"acid reflux",
        r"stomach ulcers?",
        r"peptic ulcers?",
        r"gastritis",
        r"blood sugar",
        r"hypoglyc\w*",
        r"hyperglyc\w*",
        r"breast-?feed\w*",
        r"arrhythmias?",
        r"a-?fib",
        r"atrial fibrillation",
        r"kidney (?:disease|failure)",
        r"dialysis",
        r"chronic (?:[\w-]+ )?(?:pain|illness|fatigue|conditions?|migraines?|headaches?)",
        r"long covid",
        r"immunocompromised",
        r"migraines?",
        r"adhd",
        r"autis(?:m|tic)",
        r"asperger'?s",
        r"on the (?:autism |autistic )?spectrum(?! of\b)",
        r"dyspraxi\w*",
        r"dyscalculi\w*",
        r"tourette'?s",
        r"ibs",
        r"ibd",
        r"irritable bowel",
        r"crohn'?s",
        r"colitis",
        r"diverticulitis",
        r"lupus",
        r"fibromyalgia",
        r"multiple sclerosis",
        r"parkinson'?s",
        r"arthritis",
        r"osteoarthritis",
        r"rheumatoid arthritis",
        r"gout",
        r"cystic fibrosis",
        r"sickle[- ]cell",
        r"ha?emophilia",
        r"underactive thyroid",
        r"overactive thyroid",
        r"hyp(?:o|er)thyroid\w*",
        r"copd",
        r"emphysema",
        r"sleep apno?ea",
        r"narcolepsy",
        r"tinnitus",
        r"ptsd",
        r"bipolar",
        r"eating disorders?",
        r"neurodivergen\w*",
        r"sensory (?:processing|overload)",
        r"panic (?:attacks?|disorder)",
        r"anxiety disorder",
        r"social anxiety",
        r"clinical depression",
        r"depressive",
        r"obsessive[- ]compulsive",
        r"schizophreni\w*",
        *(
            rf"{verb} (?:severe |bad |mild |clinical )?(?:depression|anxiety)"
            for verb in ("has", "have", "had", "with", "from", "for", "diagnosed with")
        ),
        r"anorexi\w*",
        r"bulimi\w*",
        r"chemo(?:therapy)?",
        r"stomas?",
        *(rf"{kind}ostom(?:y|ies)" for kind in ("", "col", "ile", "ur")),
        # medical: medicines and classes of them
        r"insulin",
        r"medications?",
        r"medicines?",
        r"meds",
        r"is prescribed",
        r"was prescribed",
        r"been prescribed",
        r"gets? prescribed",
        r"got prescribed",
        r"being prescribed",
        r"prescribed (?:medications?|medicines?|drugs?|pills|tablets|painkillers|glasses|lenses)",
        r"blood thinners?",
        r"anticoagulants?",
        r"warfarin",
        r"heparin",
        r"apixaban",
        r"metformin",
        *(rf"{kind}statins?" for kind in ("", "atorva", "simva", "rosuva", "prava")),
        r"beta[- ]blockers?",
        r"ace inhibitors?",
        r"antidepressants?",
        r"ssris?",
        r"maois?",
        r"antihistamines?",
        r"immunosuppressants?",
        r"levothyroxine",
        r"thyroxine",
        *(
            rf"{kind} (?:tablets|pills|meds)"
            for kind in ("blood pressure", "thyroid", "heart", "cholesterol")
        ),
        r"daily aspirin",
        r"low-dose aspirin",
        # named medicines of the commonest long-term kinds: antidepressants,
        # antiepileptics, ADHD, diabetes and weight, heart and blood pressure, steroids
        r"sertraline",
        r"fluoxetine",
        r"citalopram",
        r"escitalopram",
        r"venlafaxine",
        r"lamotrigine",
        r"levetiracetam",
        r"valproate",
        r"carbamazepine",
        r"methylphenidate",
        r"ritalin",
        r"adderall",
        r"semaglutide",
        r"ozempic",
        r"wegovy",
        r"amlodipine",
        r"lisinopril",
        r"clopidogrel",
        r"rivaroxaban",
        r"prednisone",
        r"prednisolone",
        r"methotrexate",
        r"inhalers?",
        *(
            rf"{refusal} take"
            for refusal in ("can(?:no|')t", "must not", "mustn't", "unable to", "not allowed to")
        ),
        # medical and sensory devices
        r"pacemakers?",
        r"cochlear (?:implants?|processors?)",
        r"c-?paps?",
        r"bipap",
        r"glucose monitors?",
        r"feeding tubes?",
        *(rf"{verb} oxygen" for verb in ("is on", "been on", "needs", "uses")),
        r"cgms?",
        *(rf"{kind} oxygen" for kind in ("home", "supplemental", "portable")),
        r"oxygen (?:tanks?|concentrators?)",
        # accessibility: mobility aids ('cane sugar' and 'a hill walker' are none)
        r"wheelchairs?",
        r"power(?:ed)? ?chairs?",
        r"mobility (?:aids?|scooters?|issues?|impair\w*)",
        r"crutches",
        r"walking (?:sticks?|canes?|frames?)",
        r"rollators?",
        r"zimmer(?: frames?)?",
        r"cane(?<!sugar cane)(?<!candy cane)(?<!sugar-cane)(?<!candy-cane)s?"
        r"(?![- ](?:sugar|toads?|chairs?|furniture|baskets?|brush(?:es)?|fields?|juice|rats?))",
        *(
            rf"{verb} an? (?:[\w-]+ )?walker"
            r"(?![- ](?:friends?|club|group|budd(?:y|ies)|pals?|mates?))"
            for verb in (
                "uses?",
                "using",
                "used",
                "needs?",
                "needing",
                "with",
                "on",
                "relies on",
                "relying on",
                "depends on",
                "pushes",
            )
        ),
        *(
            rf"{kind} dogs?"
            for kind in ("guide", "service", "assistance", "hearing", "seeing[- ]eye")
        ),
        r"step[- ]free",
        r"stairlifts?",
        r"portable ramps?",
        r"accessible (?:rooms?|toilets?|bathrooms?|parking|entrances?|seat(?:s|ing)?)",
        r"roll-in showers?",
        r"grab (?:rails|bars)",
        r"white sticks?",
        r"prosthe(?:sis|ses|tic)",
        r"amputee",
        # accessibility: sight, hearing, reading
        r"blind(?:ness)?",
        r"visually impaired",
        r"low vision",
        r"braille",
        r"screen[- ]readers?",
        r"large print",
        r"colou?r[- ]?blind\w*",
        r"deaf(?:ness|blind(?:ness)?)?",
        r"hard of hearing",
        r"hearing (?:aids?|loss|impair\w*|implants?)",
        r"sign language",
        r"dyslexi\w*",
        r"magnifiers?",
        r"big(?:ger)? fonts?",
        r"large(?:r)? fonts?",
        r"lip-?read\w*",
        *(
            rf"{refusal} (?:climb|use|walk up|do|manage) (?:stairs|steps)"
            for refusal in ("can(?:no|')t", "unable to")
        ),
        r"disabilit\w*",
        r"disabled",
        # a need said as a reaction, a pregnancy or nursing, a religious fast, PTSD/OCD
        *(rf"{verb} out in (?:hives|a rash|welts)" for verb in ("breaks?", "breaking", "broke")),
        r"gets? (?:hives|a rash|rashes|welts) (?:from|after|when|if)",
        r"reacts? (?:badly|poorly|severely) to",
        *(
            rf"{verb} (?:an? )?(?:bad |severe )?(?:allergic|skin) reactions? to"
            for verb in ("has", "gets?", "had")
        ),
        r"expecting (?:a |her |their |our )?(?:baby|child|twins|first child|second child)",
        r"nursing (?:a |an |her |their |my )?(?:baby|newborn|infant|[\w-]+-(?:week|month)-old)",
        r"fast(?:s|ing)?(?: [\w-]+){0,5}? (?:during|for|in|through|at) ramadan",
        r"observ(?:es|ing|e) ramadan",
        r"ocd",
        r"post-?traumatic stress",
    )
    # acronyms that are also names or words in lower case: matched as written ("Gerd" is a name)
    + r"|GERD"
    # whole words only ('ketones', 'window blinds', 'Deafheaven' are no needs), so
    # each need above spells the endings it takes (vegetarianism, low-carbohydrate)
    + r")\b"
)
# Every branch starts with a plain character: the engine then finds candidates by
# that character set alone (one branch opening with a group made it ~40x slower).
ZH_NEEDS = re.compile(
    # allergies, intolerances
    r"过敏|不耐受|乳糖|麸质|"
    # diets, therapeutic ones too
    r"吃素|素食|纯素|清真|忌口|戒酒|戒糖|不吃|不能吃|不敢吃|不喝|不能喝|不沾|只吃|控糖|低盐|低糖|无糖|"
    r"控盐|低脂|低嘌呤|低蛋白|低钾|低(?i:fodmap)|低碳水|生酮|流食|流质|软食|吃斋|斋戒|"
    # medical: conditions, chronic and neurodevelopmental ones too
    r"糖尿病|怀孕|孕期|孕妇|癫痫|哮喘|高血压|心脏病|心律不齐|房颤|透析|肾病|"
    r"多动症|注意力缺陷|自闭症|孤独症|阿斯伯格|肠易激|克罗恩|结肠炎|偏头痛|狼疮|纤维肌痛|"
    r"多发性硬化|帕金森|类风湿|关节炎|痛风|慢性疲劳|慢性病|甲减|甲亢|蚕豆病|化疗|造口袋|造口术|造口护理|结肠造口|回肠造口|膀胱造口|肠造口|"
    r"截瘫|偏瘫|脑瘫|瘫痪在床|下肢瘫痪|半身瘫痪|全身瘫痪|高位瘫痪|中风|脑梗|卒中|冠心病|心衰|心力衰竭|心梗|心绞痛|痴呆|阿尔茨海默|"
    r"唐氏综合[征症]|唐氏儿|唐宝宝|艾滋|乙肝|肝硬化|胃病|胃溃疡|胃炎|反流|血糖|哺乳期|"
    r"抑郁症|焦虑症|双相情感|双相障碍|躁郁|精神分裂|强迫症|惊恐发作|惊恐障碍|"
    # medical: medicines and classes of them
    r"服药|吃药|药物|胰岛素|二甲双胍|降压药|降糖药|降脂药|他汀|华法林|阿司匹林|抗凝|抗抑郁|"
    # medical and sensory devices
    r"起搏器|心脏支架|心脏搭桥|搭桥手术|搭过桥|人工耳蜗|呼吸机|吸入器|制氧机|吸氧|"
    # accessibility
    r"轮椅|拐杖|拄拐|手杖|助行器|助步器|导盲|盲杖|假肢|义肢|截肢|老年代步车|残疾人代步车|行动不便|腿脚不便|"
    r"失明|盲人|视障|视力不好|低视力|弱视|色盲|盲文|听障|唇语|读唇|听力|助听器|耳聋|聋|手语|"
    r"阅读障碍|读写障碍|学习障碍|爬不了楼|上不了楼|下不了楼|不能爬楼|没法爬楼|无法爬楼|"
    r"晕车|晕船|晕机|花粉症|高血脂|高胆固醇|胆固醇高|高度近视|"
    r"耳朵不好|耳背|重听|视力很差|视力差|视力低下|椎间盘|腰椎|颈椎病|不能久坐|不能久站|"
    r"残疾|无障碍|读屏|大字|"
    # a diet of faith, a reaction, a pregnancy, PTSD
    r"全素|过午不食|起疹子|起红疹|怀了(?:二胎|三胎|孩子|宝宝|身孕)|创伤后应激"
)
