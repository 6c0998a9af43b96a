# ruff: noqa: E501  (word lists: one alternation per line reads better than wrapped)
"""Word lists of the offline extractor's rules, as regular-expression alternations.

Closed classes only: professions, kin, adverbs, and the health words that mark
a statement as an allergy or a medical state (symptoms, conditions,
medications, body parts). Open classes (foods, places, hobbies) are left to
sentence shapes in :mod:`deerflow_memory.update.offline.rules`; a word list
here is what lets such a shape tell "Penicillin gives me hives" from "This
song gives me chills".
"""

from __future__ import annotations

import re

from deerflow_memory.capture.kin import KIN_ZH as KIN_ZH  # re-exported; the gate reads it too

ME_ZH = rf"我(?!的?(?:{KIN_ZH}))"  # the user, not "我妈", "我的儿子"
# A partner and a spouse, each word for one (a parting withdraws either, whatever word the
# fact said it with: offline.retractions)
PARTNER_EN = r"boyfriend|girlfriend|partner|fianc[eé]e?|bf|gf"
SPOUSE_EN = r"wife|husband|spouse|hubby|wifey"
PARTNER_ZH = r"男朋友|女朋友|男友|女友|对象|未婚夫|未婚妻"
SPOUSE_ZH = r"老公|老婆|丈夫|妻子|爱人|媳妇|配偶"
COUPLE_EN = f"{PARTNER_EN}|{SPOUSE_EN}"  # either
COUPLE_ZH = f"{PARTNER_ZH}|{SPOUSE_ZH}"

PROF_EN = (
    r"engineer|developer|programmer|coder|designer|teacher|professor|lecturer|doctor|physician|"
    r"surgeon|nurse|dentist|pharmacist|lawyer|attorney|accountant|student|researcher|scientist|"
    r"analyst|consultant|manager|director|executive|founder|co-founder|entrepreneur|writer|author|"
    r"journalist|editor|artist|musician|photographer|chef|cook|architect|economist|marketer|"
    r"salesperson|freelancer|contractor|intern|officer|pilot|farmer|driver|mechanic|electrician|"
    r"plumber|therapist|psychologist|veterinarian|vet|banker|trader|investor|translator|actor|"
    r"actress|postdoc|ceo|cto|cfo|coo|administrator|tester|technician|librarian|clerk|cashier|"
    r"waiter|waitress|barista|retiree|homemaker|tutor|coach|trainer|instructor|secretary|"
    r"paramedic|firefighter|soldier|police officer|cop|baker|carpenter|illustrator|animator|"
    r"producer|filmmaker|streamer|youtuber|blogger|podcaster|recruiter|pm|sre|devops engineer|"
    r"midwife|physiotherapist|physio|optometrist|radiographer|dietitian|nutritionist|counsell?or|"
    r"social worker|caregiver|carer|nanny|childminder|hairdresser|barber|stylist|tailor|welder|"
    r"builder|gardener|landscaper|surveyor|realtor|estate agent|receptionist|interpreter|"
    r"bartender|janitor|cleaner|courier|nurse practitioner|sonographer|pharmacy technician"
)
PROF_ZH = (
    r"工程师|程序员|程序猿|码农|设计师|老师|教师|医生|大夫|护士|律师|大学生|研究生|博士生|博士|硕士生|"
    r"本科生|中学生|高中生|初中生|小学生|留学生|学生|经理|总监|主管|会计|作家|记者|编辑|研究员|科学家|"
    r"架构师|分析师|顾问|创业者|自由职业者|开发者|厨师|摄影师|司机|销售|警察|公务员|教授|讲师|老板|"
    r"创始人|合伙人|运营|翻译|演员|歌手|画家|农民|工人|主播|博主|店主|飞行员|军人|药剂师|建筑师|"
    r"咨询师|实习生|职员|员工|客服|产品|开发|前端|后端|全栈|测试|HR|UP主|up主|自媒体人"
)
NUM_EN = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+)"
# Adverbs before the verb ("I'm also really…", "我也一直…"), at most ADVERBS_AT_MOST of them.
# Many rules follow them with a list of their own that shares words ("…very allergic"):
# two unbounded runs over the same words split a long run every way, and 20,000 "very"
# held the updater for five minutes. Bounded, each rule tries a run in linear time.
ADVERBS_AT_MOST = 8
ADV_EN = (
    r"(?:(?:really|also|just|absolutely|truly|genuinely|definitely|totally|especially|particularly|"
    r"kind of|kinda|do|still|honestly|simply|generally|mostly|very much|actually|now|currently|presently|strongly|strictly|"
    rf"deeply|seriously|completely|entirely|extremely|thoroughly|intensely|very|so)\s+){{0,{ADVERBS_AT_MOST}}}"
)
# Words that open examples of what came before ("allergic to nuts, like almonds", "对坚果
# 过敏，比如杏仁"): the examples belong to that clause, not a statement of their own.
# Words that take back what was just said: "just kidding", "jk", "开玩笑的", "骗你的".
TAKEN_BACK_ZH = r"(?:开玩笑的?|开个玩笑|逗你(?:玩)?的|骗你的)"
TAKEN_BACK = (
    r"(?:(?:I'?m\s+)?just\s+(?:kidding|joking)|jk|j/k|kidding|only\s+joking|"
    rf"{TAKEN_BACK_ZH})"
)
FOR_EXAMPLE_EN = r"(?:like|such as|including|especially|particularly|e\.g\.)"
FOR_EXAMPLE_ZH = r"(?:比如说?|比方说?|例如|譬如|诸如|包括|好比|像是?)"
ADV_ZH = (
    r"(?:也|还|都|一直|真的|其实|确实|本来就?|从小就?|现在|目前|已经|平常|向来|本身|去年|前年|最近|上个月|年初|刚"
    r"|从(?!明|下|后|未来|将来)[^，,。！？我]{1,6}?(?:起|开始)就?)"  # ("我从三月起住在杭州")
    rf"{{0,{ADVERBS_AT_MOST}}}"
)
NAME_ZH = r"[\u4e00-\u9fff·]{1,4}?|[A-Za-z][A-Za-z .'-]{0,30}?"

# Where such a saying ends: the clause's end, "of …", "and …", a comma or an aside; a word
# after it makes it a name ("i live in peace river", "i work at a computer store").
_SAYING_ENDS = (
    r"(?=$|[,.;:!?)]| (?:of|and|or|with|as|too|lol|haha|tbh|honestly|these days|right now|"
    r"at the moment|unlike|but|because|cause|so|about|all|most|mostly|sometimes|often|always"
    r"|here|there|every|each|in|at|on|for|from|to|until|till|when|while|since|that|this|these"
    r"|my|your|our|their|his|her|its|the|a|an|i|we|they|he|she|it|day|days|week|weeks)\b)"
)
# "I live in the moment", "I'm based in reality": a way of living, no place (the location
# slot would replace the real one). Capitalised, it is a place's name ("I live in Hope").
NOT_A_PLACE_EN = (
    r"(?:(?:the |a |my |constant |perpetual |total )?(?=(?-i:[a-z]))(?:moment|present|past|future|now|fear|dread|"
    r"terror|panic|hope|denial|peace|harmony|luxury|sin|shame|limbo|bubble|dream|dreamland|"
    r"fantasy|fantasy land|la la land|own head|head|own world|world of my own|reality|"
    r"sweatpants|pajamas|pyjamas|hoodies|jeans|gym clothes)"
    rf"{_SAYING_ENDS})"
)
# "I work at my own pace", "I work at a desk": how or where, no employer (capitalised, a
# company's name: "Pace Logistics").
NOT_AN_EMPLOYER_EN = (
    r"(?:(?:my own |a \w+ |an \w+ |their own |your own |a |an |the |my |our |full )?(?=(?-i:[a-z]))"
    r"(?:pace|speed|rate|rhythm|desk|computer|laptop|standing desk|nights?|weekends?|it|this|that|"
    # where one sits, not who one works for ("I'm working at my desk right now", "…at the
    # kitchen table", "…at full capacity", "…at my parents' place"): helper 355
    r"(?:front |reception |kitchen |dining )?(?:desk|table)|office|home office|capacity|tilt|"
    r"(?:\w+'s |\w+s' )?(?:place|house|flat|apartment))"
    rf"{_SAYING_ENDS})"
)
# A place of work said after "work in a…" ("I work in a bakery", "…in an office"): an
# employer, as "work at a bakery" is (not "work in a team", "…in IT", "…in London")
WORKPLACE_NOUN_EN = (
    r"(?:bakery|bank|hospital|school|shop|store|restaurant|caf[eé]|cafe|"
    r"factory|office|warehouse|lab|laboratory|library|pharmacy|hotel|bar|pub|clinic|garage|"
    r"nursery|care home|nursing home|supermarket|salon|kitchen|call cent(?:re|er)|gym|museum|"
    r"bookshop|bookstore|butcher's|deli|brewery|studio|agency|startup|firm|mine|mill|farm|"
    r"vineyard|prison|court|university|college|kindergarten|daycare|dental practice|practice|"
    r"surgery|vet's|veterinary practice|zoo|theatre|theater|cinema|airport|station|port|"
    r"shipyard|bakehouse|canteen|hostel|hospice|church|mosque|temple|synagogue)"
)
WORKPLACE_EN = rf"(?:[\w'-]+ ){{0,2}}?{WORKPLACE_NOUN_EN}"
NOT_NAMES = frozenset(
    """fine good ok okay sorry back here there home ready done busy tired hungry happy sad sure
    glad new old single married american british english chinese japanese korean french german
    spanish italian indian canadian australian russian dutch swedish mexican brazilian vegan
    vegetarian later tomorrow now today anytime maybe whenever when if a an the in on at not
    just also so very still allergic from into learning working going looking trying based
    retired pregnant lost confused curious excited interested worried afraid stuck late early
    off out up down over alive well bored christian muslim jewish buddhist catholic hindu sick
    ill free available right wrong you me him her them us it this that
    system admin administrator assistant root sudo operator developer moderator superuser user
    """.split()  # noqa: SIM905
)
GOAL_VERBS_EN = (
    r"learn|become|improve|master|build|start|launch|open|lose|gain|move|travel|visit|write|publish|"
    r"finish|complete|study|retire|save|buy|own|create|speak|pass|climb|compete|earn|grow|adopt|"
    r"graduate|live|go back to|run a marathon|get better at|get fit|get a (?:new )?job|get into|"
    r"switch careers|change careers|switch (?:into|to)|move into|transition into|be(?:come)? (?:an?|more|fluent)\b|"
    # everyday efforts: "trying to drink less coffee", "trying to quit smoking"
    r"(?:eat|drink|sleep|snack|spend|smoke|work|sit|drive) (?:less|more|healthier|better|earlier|clean|healthy)|"
    r"cut (?:down|back) on|reduce my|limit my|avoid (?!the\b)|give up|kick|exercise|meditate|get (?:in|into) shape|"
    r"(?:quit|stop|give up) \w+ing\b|stick to|stay (?:sober|fit|active|healthy|off)|keep fit"
)

# --- health: what makes "X gives me Y" a reaction and "I have Y" a condition ---------------

# What a body does when it reacts to something ("Penicillin gives me hives", "cats make me sneeze").
SYMPTOM_EN = (
    r"(?:hives|(?:an? )?(?:bad |nasty |itchy |skin )?rash(?:es)?|itch(?:y|es|ing)?|swell(?:s|ing)?(?: up)?|swollen|puffy|"
    r"sneez(?:e|ing)|wheez(?:e|y|ing)|cough(?:ing)?|breathless|short of breath|congested|stuffy|(?:a )?runny nose|"
    r"sick|ill|nauseous|queasy|throw up|vomit|bloated|gassy|(?:stomach |tummy )?(?:cramps|pains?)|(?:a )?tummy ?aches?|diarrh(?:o)?ea|the runs|(?:a )?stomach ?aches?|"
    r"(?:an )?upset stomach|heartburn|reflux|indigestion|(?:a )?migraines?|(?:a )?headaches?|break out|breakouts|"
    r"acne|eczema|flare(?: up|-ups?)?|tingl(?:e|y|ing)|burn|blotchy|welts|blisters|dizzy|palpitations|"
    r"jittery|shaky|lightheaded|light-headed|"
    r"(?:an? )?(?:allergic |bad )?reactions?|water|run)"
)
SYMPTOM_ZH = (
    r"(?:过敏|起(?:红)?疹子?|出疹子|长疹子|起红疹|起红点|起包|起荨麻疹|荨麻疹|发痒|痒|红肿|肿|拉肚子|腹泻|"
    r"胃疼|胃痛|肚子疼|肚子痛|头疼|头痛|恶心|呕吐|想吐|打喷嚏|流鼻涕|鼻塞|咳嗽|气喘|喘不上气|呼吸困难|胸闷|"
    r"心慌|心悸|胀气|反酸|烧心|头晕|长痘|失眠|睡不着|过敏反应)"
)
BODY_ZH = r"(?:嘴巴|嘴唇|嘴|喉咙|嗓子|皮肤|脸|眼睛|身上|全身|手|胃|肚子)"
# A condition someone has or lives with: morphology ("-itis", "… disorder") before a list.
CONDITION_EN = (
    r"(?:(?:type [12]|chronic|severe|mild|bad|acute|seasonal|clinical|social|generali[sz]ed|postnatal|"
    r"postpartum|high-functioning|early-onset)\s+)*"
    r"(?:\w+(?:itis|osis|emia|aemia|algia|pathy|somnia|plegia|lepsy)|(?:an? )?(?:[\w'-]+ ){0,2}(?:disease|disorder|"
    r"syndrome|deficiency|injury|intolerance|allerg(?:y|ies))|(?:an? )?(?:heart|skin|medical|chronic|health|lung|"
    r"thyroid|genetic|rare|autoimmune|kidney|liver|eye|neurological) condition|(?:an? )?(?:under|over)active \w+|"
    r"(?:back|knee|heart|stomach|gut|skin|sleep|thyroid|kidney|liver|joint|hip|eye|vision|hearing|digestive|"
    r"breathing|mobility|memory|mental health|bladder|blood pressure) (?:problems|issues|trouble)|"
    r"eczema|psoriasis|acne|rosacea|asthma|diabetes|migraines?|coeliac|celiac|pcos|copd|bipolar|"
    r"endometriosis|fibromyalgia|dementia|sickle cell|cystic fibrosis|ha?emophilia|afib|angina|adhd|"
    # a condition named after someone, said short ("Crohn's"; not a surname that is also a
    # first name, "I have Addison's number": "Addison's disease" is read as any disease is)
    r"(?:crohn|parkinson|alzheimer|hashimoto|raynaud|sj[oö]gren|m[eé]ni[eè]re|tourette|asperger|"
    r"hodgkin|huntington)(?:'s|’s)(?: (?:disease|syndrome|thyroiditis|phenomenon|lymphoma))?|"
    r"bell's palsy|add|ocd|ptsd|autism|anxiety|depression|"
    r"insomnia|gerd|ibs|tinnitus|scoliosis|sciatica|vertigo|glaucoma|cataracts?|lupus|ms|cancer|hiv|long covid|"
    r"(?:high|low) (?:blood pressure|cholesterol|blood sugar|iron)|hypertension|epilepsy|dyslexia|dyspraxia|"
    r"gout|(?:acid )?reflux|heartburn|sleep apn(?:o)?ea|hay fever|allergies|chronic pain|back pain|hearing loss|"
    r"low vision|limited mobility|a disability|a pacemaker|"
    r"(?:an? )?(?:bad|weak|dodgy|bum|stiff|injured|slipped|herniated|trick|wonky) (?:back|knee|hip|shoulder|neck|ankle|wrist|disc)s?|"
    r"(?:bad|weak|dodgy|stiff) (?:knees|joints|hips|eyesight|eyes))"
)
MEDICATION_EN = (
    r"(?:(?:\w+ )?(?:medication|meds|medicine|pills|tablets)|antidepressants|antibiotics|insulin|blood thinners|"
    r"anticoagulants|statins|beta[- ]blockers|steroids|chemo(?:therapy)?|dialysis|the pill|hrt|hormone therapy|"
    r"birth control|immunosuppressants|antihistamines|painkillers|lithium|metformin|warfarin|levothyroxine|"
    r"ssris?|an ssri|methadone|inhalers?|aspirin|labetalol|carvedilol|gabapentin|pregabalin)"
)
# A drug by its name's ending ("lisinopril", "atorvastatin 20mg"): with MEDICATION_EN, what a
# medication field's item or a medication stopped may be.
DRUG_NAME_EN = (
    r"[a-z]{2,}(?:pril|sartan|statin|olol|azole|cillin|cycline|mycin|prazole|oxetine|pramine|"
    r"tidine|dipine|thyroxine|profen|amol|ophen|xaban|farin|parin|asone|isone|olone|"
    r"traline|alopram|faxine)"
    r"(?:\s+\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|ml|iu|units?))?"
)
# A Chinese drug name by its ending: 二甲双胍, 阿司匹林, 华法林, 布洛芬, 阿莫西林, 奥美拉唑, 舍曲林,
# 左甲状腺素, 氯吡格雷 (or a few by name: 优甲乐, 泼尼松, 头孢).
DRUG_NAME_ZH = (
    r"[\u4e00-\u9fff]{0,8}?(?:药|胰岛素|激素|维生素|胶囊|胍|匹林|法林|洛芬|西林|霉素|沙星|拉唑|替丁|"
    r"曲林|地平|他汀|洛尔|沙坦|普利|西汀|甲状腺素|优甲乐|泼尼松|头孢|格雷|褪黑素|钙片|沙班|鲁肽)"
)
# A supplement: an item of a medication field ("Meds: metformin, fish oil"), though "I take
# iron" alone is no medical need.
SUPPLEMENT_EN = (
    r"(?:fish oil|cod liver oil|omega[- ]?3s?|(?:multi)?vitamins?(?: [a-e]\d{0,2})?|iron(?: tablets)?|"
    r"magnesium|zinc|folic acid|melatonin|probiotics|supplements)"
)
# A medication by its name: from the list, or by a drug name's ending.
MEDICATION_NAME_EN = rf"(?:{MEDICATION_EN}|{DRUG_NAME_EN})"
# A word the condition endings take in ("nostalgia", "empathy", "prognosis", "Mondayitis",
# "add"), or a denial ("no meds", "denies heart disease"): no health item.
_NOT_A_HEALTH_ITEM = (
    r"(?!(?:no|not|none|denies|denied|negative)\b|(?:nostalgia|empathy|sympathy|apathy|telepathy|"
    # ("add" in lower case only: "ADD" is a condition; "lol" not in a beta-blocker's name:
    # atenolol, labetalol, carvedilol; "lolol" is a laugh)
    r"academia|hypnosis|prognosis|diagnosis|osmosis|symbiosis|metamorphosis|apotheosis|(?-i:add)|"
    r"(?:lo+)+l|(?!\w+olol$|labetalol$|carvedilol$)\w*lol\w*|"
    r"(?:monday|friday|senior|lazy|couch|google|phone|screen|exam|test|work)itis)$)"
)
# What a form's condition or medication field may list (fullmatch each item): a condition or
# a medication from the vocabularies, a drug's name by its ending ("lisinopril") or a
# supplement; anything else ("Conditions: sunny", "Health: good", "Meds: later") is no need.
# text.py reads such a field, lists.py lets a loose list of it go on, retractions.py splits a
# need of several of them.
CONDITION_ITEM_EN = re.compile(rf"{_NOT_A_HEALTH_ITEM}(?:{CONDITION_EN})", re.IGNORECASE)
MEDICATION_ITEM_EN = re.compile(
    rf"{_NOT_A_HEALTH_ITEM}(?:{MEDICATION_NAME_EN}|{SUPPLEMENT_EN})", re.IGNORECASE
)
# "my blood pressure is high": what of the body a state can be said of, and the states.
BODY_EN = (
    r"(?:cholesterol|blood pressure|blood sugar|iron(?: levels?)?|vitamin d(?: levels?)?|thyroid|resting heart rate|"
    r"eyesight|vision|hearing|immune system|back|knees?|joints|stomach|digestion|gut|skin|bones|liver|kidneys|heart|lungs)"
)
BODY_STATE_EN = (
    r"(?:high|low|bad|poor|weak|terrible|awful|not (?:great|good)|elevated|borderline|dodgy|shot|sensitive|"
    r"fragile|irregular|failing|a mess|a problem|compromised|deteriorating)"
)
# "我颈椎不好", "我血糖偏高": organs and measures, and how they are said to be.
BODY_PART_ZH = (
    r"(?:颈椎|腰椎|腰|胃|肠胃|脾胃|肠道|肝|肝脏|肾|心脏|膝盖|关节|眼睛|视力|听力|血压|血糖|血脂|胆固醇|尿酸|"
    r"免疫力|皮肤|睡眠|牙齿?|嗓子|喉咙|鼻子|肺|甲状腺|记忆力|体质)"
)
BODY_STATE_ZH = r"(?:不好|不太好|很差|差|不行|有问题|偏高|偏低|高|低|弱|很弱|敏感|脆弱)"
CONDITION_SUFFIX_ZH = (
    r"(?:炎|病|症|癌|瘤|障碍|综合征|综合症|不全|结石|溃疡|突出|增生|囊肿|息肉|衰弱|失调|亢进|减退|贫血|"
    r"痛风|哮喘|湿疹|近视|散光|耳鸣|失眠|偏头痛|甲亢|甲减|三高|痔疮|白癜风|牛皮癣|脂肪肝|高血脂|高尿酸|低血压|"
    r"高血糖|低血糖)"
)
# A form's field labels of needs, shared by the list reading (lists.py) and the field reading
# (text.py): what stands before a need's label ("Food allergies:", "My diet:"), and the labels
# of conditions, medications, access needs and diets ("Medical history:", "Current meds:",
# "Accessibility needs:", "Dietary restrictions:", "病史：", "健康状况：").
NEED_FIELD_BEFORE_EN = r"(?:(?:my|food|drug|medication|known|severe|main)\s+)*"
CONDITION_FIELD_EN = (
    r"(?:(?:medical|health|chronic|existing|pre-existing|underlying|current)\s+)?(?:conditions?|diagnos[ie]s)"
    r"|medical\s+(?:history|issues|problems)|health(?:\s+(?:issues|problems))?|medical"
)
MEDICATION_FIELD_EN = r"(?:current\s+)?(?:medications?|meds|medicines?|prescriptions?)"
ACCESS_FIELD_EN = r"(?:accessibility|mobility)(?:\s+(?:needs?|requirements?))?"
DIET_FIELD_EN = r"dietary\s+(?:restrictions?|needs?|requirements?)|diet"
CONDITION_FIELD_ZH = r"病史|既往史|既往病史|慢性病|基础病|疾病|健康状况"
# One condition named as a thing ("痛风", "胃溃疡", "腰椎间盘突出", "2型糖尿病"): a few characters
# before a condition's ending, none that makes it a doing, a time, someone, a denial or a doubt
# ("个同事得了胃炎", "否认高血压", "疑似胃炎", "曾患肺炎", "父亲糖尿病", "以前就有高血压"), and no joke
# ("懒癌", "相思病", "中二病").
CONDITION_ZH = (
    r"(?![\u4e00-\u9fff]{0,4}(?:懒癌|尴尬癌|直男癌|相思病|中二病|公主病|拖延症|职业病))"
    r"(?:轻度|中度|重度|慢性|急性|过敏性|[12一二]型)?"
    r"(?:(?![有就是在过了的前后时候常经用户自己曾还又都也很太比较点些要无不没会能想得让被把给去来做出行个只空本篇"
    r"位条张担解兴研否疑患家族父母亲妈爸哥姐弟妹儿女朋同])[\u4e00-\u9fff0-9]){0,5}?"
    rf"(?:{CONDITION_SUFFIX_ZH}|高血压)"
)
# …by its common name, for where no verb says the user has it ("我痛风", "我高血压、糖尿病"):
# a list, not an ending, so "我以为我高血压", "我猫肾病", "我尴尬癌" name none.
CONDITION_NAME_ZH = (
    r"(?:(?:轻度|中度|重度|轻微|严重|慢性|急性|[12一二]型)的?)?"  # (not 过敏性: "我过敏性鼻炎" reads as said)
    r"(?:高血压|低血压|高血脂|高尿酸|高血糖|低血糖|三高|糖尿病|痛风|哮喘|湿疹|荨麻疹|胃炎|肠胃炎|结肠炎|鼻炎|咽炎|"
    r"偏头痛|失眠|近视|远视|散光|贫血|抑郁症|焦虑症|甲亢|甲减|脂肪肝|胃溃疡|腰椎间盘突出|颈椎病|肩周炎|"
    r"关节炎|心脏病|冠心病|癫痫|乳糜泻|银屑病|牛皮癣|白癜风|痔疮|耳鸣|肠易激综合征)"
)
# A Chinese condition by its name or its ending.
CONDITION_ONE_ZH = rf"(?:{CONDITION_NAME_ZH}|{CONDITION_ZH})"
CONDITION_ITEM_ZH = re.compile(CONDITION_ONE_ZH)  # (fullmatch: a condition field's item)
# Lasting states said as adjectives ("I'm short-sighted", "我近视很深").
STATE_EN = (
    r"(?:diabetic|pre-diabetic|prediabetic|celiac|coeliac|epileptic|asthmatic|deaf|blind|hard of hearing|"
    r"colou?r-?blind|visually impaired|hearing impaired|partially sighted|wheelchair user|wheelchair-bound|"
    r"in a wheelchair|dyslexic|anemic|anaemic|hypertensive|immunocompromised|short-sighted|shortsighted|"
    r"near-sighted|nearsighted|long-sighted|far-sighted|farsighted|astigmatic|insulin-dependent|autistic|"
    r"bipolar|neurodivergent|on the (?:autism )?spectrum|hypermobile|type [12] diabetic|insomniac|amputee|"
    r"in recovery|recovering alcoholic|cancer survivor|[\w-]+ (?:sufferer|patient|survivor))"
)

# --- what one reacts to -------------------------------------------------------------------

# Something one can be allergic or intolerant to: a food, a drug, an animal, a plant or a
# material (a known word, or a kind of nut, berry, fish, seed or bean).
_FOOD_WORDS = (
    r"peanuts?|tree nuts|nuts?|walnuts?|almonds?|cashews?|pecans?|pistachios?|hazelnuts?|sesame|"
    r"soy|soya|wheat|gluten|milk|dairy|lactose|eggs?|fish|shellfish|shrimps?|prawns?|crabs?|"
    r"lobsters?|mussels|oysters|clams|squid|mustard|celery|lupin|sulfites|sulphites|corn|kiwis?|"
    r"mangos?|mangoes|strawberr(?:y|ies)|tomatoes|tomato|garlic|onions?|mushrooms?|coconut|"
    r"chocolate|caffeine|alcohol|msg|avocados?|bananas?"
)
ALLERGEN_EN = (
    rf"(?:{_FOOD_WORDS}|penicillin|amoxicillin|sulfa(?: drugs)?|aspirin|ibuprofen|codeine|"
    r"latex|nickel|pollen|grass|dust(?: mites)?|mould|mold|cats?|dogs?|horses?|bees?|wasps?|"
    r"feathers|wool|perfume|fragrances?|(?!selfish\b)[a-z]+(?:nuts|berries|fish|seeds|beans))"
)
# What else a diet or a need may leave out: meats, dishes' staples, drinks ("I can't eat pork.
# Beef either."), besides what one reacts to.
NEED_THING_EN = (
    rf"(?:{ALLERGEN_EN}|beef|pork|chicken|lamb|mutton|veal|turkey|duck|goose|bacon|ham|venison|"
    r"rabbit|meat|red meat|poultry|seafood|cheese|butter|cream|yogh?urt|bread|pasta|rice|oats|"
    r"barley|rye|sugar|honey|citrus|oranges?|lemons?|limes?|apples?|peaches|cherries|grapes|"
    r"pineapples?|melons?|papayas?|cilantro|coriander|peppers|chill?i(?:es)?|spicy food|coffee|"
    r"tea|beer|wine|spirits|liquor|gelatin|eggplant|aubergine|peas|lentils|chickpeas|legumes)"
)

# --- diet ----------------------------------------------------------------------------------

DIET_EN = (
    r"(?:vegetarian|vegan|pescatarian|pescetarian|plant-based|keto|paleo|sober|teetotal|"
    r"(?:dairy|gluten|sugar|alcohol|meat|lactose|nut|egg|soy|wheat)[- ]free|halal|kosher|flexitarian)"
)
# "vegan since 2015 / last spring / I was 12 / my teens": a time a state began, naming no thing
# (the user's words, or the stored fact's, where "I was" is "they were").
SINCE_WHEN_EN = (
    r"(?:(?:19|20)\d\d|(?:last|this) (?:year|month|week|spring|summer|autumn|fall|winter)"
    r"|(?:early |late |mid-?)?(?:january|february|march|april|may|june|july|august|september"
    r"|october|november|december|spring|summer|autumn|fall|winter)(?: (?:19|20)\d\d)?"
    r"|childhood|birth|new year|university|uni|college|school"
    r"|(?:my|their) (?:teens|twenties|thirties|forties|student days|uni days|school days)"
    r"|(?:I was|they were) (?:a )?(?:kid|child|teenager|teen|student|\d{1,2})"
    r"|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}) (?:years?|months?) ago)"
)
FASTING_EN = r"(?:(?:intermittent |alternate[- ]day |16:8 |water |dry )?fasting|whole30|low[- ]carb|low[- ]fodmap|keto|paleo)"
# What is eaten, drunk or smoked, that one gives up or stays off ("I gave up sugar", "I'm off
# carbs", "I'm avoiding gluten").
CONSUMED_EN = (
    rf"(?:{NEED_THING_EN}|salt|sweets|carbs|fried food|processed food|junk food|fast food|smoking|"
    r"drinking|vaping|alcohol|booze|caffeine|soda|fizzy drinks|energy drinks|cigarettes|cigars|"
    r"nicotine|weed|cannabis|chocolate|candy|snacking|dairy|gluten|meat and dairy)"
)
# A list of them ("gluten, dairy and soy"), none a medicine ("I'm off sugar and insulin"): each
# one held once found (an atomic group), so a list that fails at its end is not tried again
# split another way ("meat and dairy" is one thing or two).
CONSUMED_LIST_EN = (
    rf"(?!(?:{MEDICATION_NAME_EN})\b)(?>{CONSUMED_EN}\b)"
    rf"(?:(?:,? (?:and|or|&)|,) (?!(?:{MEDICATION_NAME_EN})\b)(?>{CONSUMED_EN}\b))*"
)
# For what of the user's own a diet is kept ("I'm off dairy for my skin"), not another's ("for
# my daughter") nor a day to come ("for my wedding").
FOR_OWN_HEALTH_EN = rf"for my (?:(?:own )?health|weight|diet|teeth|{BODY_EN}|{CONDITION_EN})"
# "我晚上不吃主食": when a diet rule holds.
MEAL_TIME_ZH = r"(?:早上|早晨|中午|晚上|夜里|睡前|饭后|空腹|周末|工作日|平时|每天|天天|早餐|早饭|午饭|午餐|晚饭|晚餐)"
# "我在控糖": what one cuts down on.
NUTRIENT_ZH = (
    r"(?:糖|油|盐|碳水(?:化合物)?|碳|卡|热量|卡路里|饮食|体重|主食|甜食|咖啡因?|酒精?|奶茶|零食|夜宵|宵夜|红肉|"
    r"脂肪|淀粉|嘌呤|糖分|油脂|钠)"
)

# --- background ----------------------------------------------------------------------------

# A faith by its adjective ("Catholic", "Sikh").
FAITH_EN = (
    r"(?:catholic|christian|muslim|jewish|hindu|buddhist|sikh|jain|mormon|atheist|agnostic|protestant|"
    r"baptist|methodist|lutheran|anglican|evangelical|presbyterian|pentecostal|quaker|taoist|pagan)"
)
# Lasting traits said with "I'm …" / "我是…".
TRAIT_EN = (
    r"(?:left-handed|right-handed|ambidextrous|an only child|an? (?:identical |fraternal )?twin|an introvert|"
    r"an extrovert|an ambivert|introverted|extroverted|a night owl|an early bird|an early riser|a light sleeper|"
    r"a heavy sleeper|a smoker|a non-smoker|an ex-smoker|a non-drinker|a homeowner|an immigrant|"
    r"a (?:first|second|third)-generation immigrant|an expat|a (?:military )?veteran|bilingual|trilingual|"
    r"multilingual|an empty nester|a caregiver|a carer|an atheist|a christian|a muslim|a buddhist|a hindu|a jew|"
    # a build one lives with ("I'm very tall", "I'm overweight": what fits and what to eat follow)
    r"(?:a (?:bit|little) |slightly |quite |pretty |rather |severely |very )?(?:tall|short|petite|overweight|underweight|obese)|"
    # a faith said by its adjective: "I'm Catholic", "I'm a practising Muslim" (what is eaten follows)
    r"(?:an? )?(?:devout |practi[cs]ing |observant |lapsed |non-practi[cs]ing |born-again |orthodox )?"
    rf"{FAITH_EN})"
)
# Nationalities and heritages said with "I'm …" ("I'm half Korean", "I'm Mexican-American"):
# a word a name could be too ("Christian", "Dan") is not one of them.
DEMONYM_EN = (
    r"(?:american|british|english|scottish|welsh|irish|canadian|mexican|brazilian|argentine|argentinian|"
    r"chilean|colombian|peruvian|venezuelan|cuban|puerto rican|dominican|jamaican|haitian|french|german|"
    r"italian|spanish|portuguese|dutch|belgian|swiss|austrian|swedish|norwegian|danish|finnish|icelandic|"
    r"polish|czech|slovak|hungarian|romanian|bulgarian|greek|turkish|serbian|croatian|bosnian|albanian|"
    r"ukrainian|russian|belarusian|lithuanian|latvian|estonian|armenian|georgian|iranian|persian|iraqi|"
    r"syrian|lebanese|israeli|palestinian|jordanian|egyptian|moroccan|algerian|tunisian|libyan|saudi|"
    r"emirati|yemeni|afghan|pakistani|indian|bangladeshi|sri lankan|nepali|nepalese|chinese|taiwanese|"
    r"japanese|korean|mongolian|vietnamese|thai|cambodian|laotian|burmese|filipino|filipina|malaysian|"
    r"singaporean|indonesian|australian|new zealander|nigerian|ghanaian|kenyan|ethiopian|somali|"
    r"sudanese|ugandan|tanzanian|rwandan|south african|zimbabwean|congolese|senegalese|cameroonian|"
    r"hispanic|latino|latina|latinx|asian|african|european|arab|caribbean|native american|indigenous|"
    r"biracial|mixed-race|mixed race)"
)
# "I'm a morning person": not an evaluation of oneself ("I'm a good person").
JUDGEMENT_EN = (
    r"(?:good|bad|nice|kind|decent|normal|reasonable|simple|private|busy|different|lucky|happy|sad|terrible|"
    r"horrible|great|better|worse|real|new|changed|free|whole|grown|honest|fair|patient|difficult|complicated|"
    r"smart|stupid|nervous|anxious|lonely|tired|strong|weak|positive|negative)"
)
TRAIT_ZH = (
    r"(?:左撇子|右撇子|独生子女?|独生女|双胞胎|夜猫子|早起的人|晨型人|夜型人|路痴|吃货|社恐|社牛|[iIeE]人|"
    r"内向的人|外向的人|宅男|宅女|上班族|打工人|北漂|沪漂|深漂|海归|退伍军人|烟民|老烟民|无神论者|基督徒|"
    r"佛教徒|穆斯林)"
)
# Pastimes said in the present tense ("I sing in a choir"); "run", "write", "drive" are left out:
# "I run the tests", "I write the report" are tasks, not pastimes.
_HOBBIES = (
    "play sing paint draw knit crochet sew garden surf climb boulder cycle swim hike skate ski "
    "snowboard dance bake brew fish sail row box volunteer coach meditate jog kayak skateboard golf "
    "camp"
)
HOBBY_VERB_WORDS_EN = tuple(_HOBBIES.split())
HOBBY_VERBS_EN = "(?:" + "|".join(HOBBY_VERB_WORDS_EN) + ")"
# A work or a place seen, read, heard or tried once ("I watched Parasite…", "I tried the ramen
# bar…"), which a taste of it may follow ("…and loved it").
TRIED_EN = (
    r"(?:just |finally |recently |also )?(?:watched|saw|read|finished(?: reading| watching)?|tried"
    r"|visited|listened to|played|binged|binge-watched|went to|ate at)"
)
# Nuisances nobody loves but in jest: "Oh great, I just love waiting in line for hours" is
# sarcasm, no taste to keep.
NUISANCES_EN = (
    r"(?:(?:being stuck in |sitting in )?traffic(?: jams)?|rush hour|queues|(?:waiting|standing) in (?:line|queues?)"
    r"|waiting|paperwork|taxes|deadlines|hangovers|alarm clocks?|being (?:late|stuck|sick|ill|tired))"
    r"(?: (?:for (?:hours|ages|ever)|all day|at the (?:dmv|airport|post office)))?"
)
# Things everyone grumbles about: "I hate Mondays" is a mood, not a taste worth keeping.
GRIPES_EN = rf"(?:{NUISANCES_EN}|mondays|meetings|homework|(?:this|the) weather|commuting|the commute|when .+|it when .+)"


# --- scripts ------------------------------------------------------------------------------

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
"""A Chinese character (CJK unified ideographs, extension A, compatibility ideographs)."""

# --- verbs -----------------------------------------------------------------------------------

# Verbs a habit or a plan is said with, in the base form "I usually …" takes, and the
# auxiliaries and negations that open a verb phrase. After "mostly", "usually", "often" with
# "I" left out ("…, mostly salmon", "…, usually green tea"), only these are read as a verb:
# any other word is what the clause before is about ("User mostly salmons" was stored).
COMMON_VERBS_EN = frozenset(
    """be do don't doesn't didn't did have has haven't hasn't had get go come make take give keep
    let put say see know think want need like love enjoy prefer hate adore dislike avoid
    skip use try start stop quit finish begin leave stay live work study teach learn read
    write draw paint sing dance play watch listen hear look feel eat drink cook bake grill
    fry order buy shop sell pay spend save earn rent own share lend borrow bring carry wear
    dress wash clean tidy fix build grow plant garden water walk run jog swim cycle bike
    ride drive fly travel commute hike climb ski surf skate sail row paddle kayak fish hunt
    camp lift train stretch exercise practise practice meditate pray rest sleep nap wake sit
    stand lie visit call text email message chat talk speak meet date marry raise feed care
    help volunteer coach mentor manage lead design code program develop test review edit
    translate drum knit sew crochet brew roast smoke vape chew snack fast diet gamble bet
    game stream post blog film record shoot photograph collect host invite celebrate wait
    hang head move pack plan book check follow forget remember miss choose pick stick
    backpack journal tutor prune sketch present steam strum pedal swing jam spar box row
    golf bowl sculpt weave carve bead quilt scrapbook doodle compose produce mix dj vlog
    podcast binge scroll juggle skydive dive snorkel fence ride hunt forage bake boulder
    went won't wouldn't can't cannot couldn't shouldn't mustn't never will would can could
    should may might must""".split()  # noqa: SIM905
)


# --- people named in Chinese -----------------------------------------------------------------

_SURNAMES_ZH = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝"
    "龚邵万钱严覃武戴莫孔向汤"
)
PERSON_ZH = (
    # time and degree words that start like a name are none ("周末", "夏天", "曾经", "马上")
    r"(?!周末|周[一二三四五六日天]|[夏白]天|夏季|曾经|曾|常常|常年|向来|马上|严重|高中|方面|于是|万一"
    r"|许多|许久|任何|何时)"
    rf"(?:[小老阿][{_SURNAMES_ZH}]|[{_SURNAMES_ZH}][\u4e00-\u9fff]{{1,2}}?)"
)
"""A person's name in Chinese, as a regex (no group): 小/老/阿 and a common surname, or a
common surname and one or two characters of a given name. A food or an illness may start
the same way ("黄豆", "杨梅", "高血压"): see ``ellipsis.a_person_zh``."""
ILLNESS_FIRST_ZH = (
    r"高血[压糖脂]|高尿酸|高胆固醇|高烧|高热|高反|白内障|白血病|白癜风|黄疸|毛囊炎|胆结石|胆囊炎|"
    r"石淋|贾第虫"
)
"""Illnesses said first that start like a name ("高血压不能吃太咸")."""

# When a thing ended, said after it ("…last year", "…yesterday", "…in June", "…back in 2022"): optional.
AGO_EN = r"(?: (?:last|this) (?:year|month|week|spring|summer|autumn|fall|winter|night|morning)| yesterday| today| the other day| on (?:mon|tues|wednes|thurs|fri|satur|sun)day| (?:a few |a couple of |a |an |\w+ )?(?:years?|months?|weeks?|days?) ago| recently| a while ago| long ago| (?:in|back in|at the (?:end|start|beginning) of|in (?:early|late|mid-?)) ?(?:the )?(?:january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter|(?:19|20)\d\d)(?: (?:19|20)\d\d)?)?"

# Emoji that stand for a thing (a plant or a food, an animal, a person, an object), as a
# character class's ranges; not a face, a hand or a symbol.
EMOJI_THING = (
    "\U0001f330-\U0001f43f\U0001f466-\U0001f4a9\U0001f4ab-\U0001f4ff"
    "\U0001f950-\U0001f9af\U0001f9c0-\U0001f9ff\u2615"
)
