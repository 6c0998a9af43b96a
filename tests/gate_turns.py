"""A table of user turns for the extraction gate: ``(text, states_something_about_the_user)``.

Written for this project: half are self-statements in varied phrasings
(first person, standing instructions without "I", answers about oneself,
questions about one's own memory), half are requests that teach nothing
about the user, including ones with "help me" / "帮我" in them. Chinese and
English. Used by ``tests/test_gate.py`` (recall must be 100 %) and
``bench/gate.py`` (skip rate).
"""

from __future__ import annotations

SELF: tuple[str, ...] = (
    # English, first person
    "I'm a backend engineer at a fintech startup.",
    "My daughter just started kindergarten.",
    "I am allergic to shellfish.",
    "We moved to Lisbon last spring.",
    "i only drink decaf these days",
    "Our team ships on Fridays, so keep that in mind.",
    "I've been learning Korean for two years.",
    "Honestly, I hate long-winded answers.",
    "My name is Priya, by the way.",
    "I'd rather you used metric units.",
    "I work night shifts at a hospital.",
    "Me and my partner are vegan.",
    "I use Neovim for everything.",
    "I'm training for a half marathon in October.",
    "My laptop is a ThinkPad running Arch.",
    "Can you recommend a book? I loved Dune.",
    "Write the email for me, I'm the project lead here.",
    "What do you remember about me?",
    "What's my favourite programming language again?",
    "Did I tell you where I live?",
    "Shellfish is a real problem for me.",
    "Spicy food doesn't agree with me.",
    # English, standing instructions / preferences without a first person
    "Always answer in British English.",
    "From now on, skip the pleasantries.",
    "Please use tabs, not spaces, in code samples.",
    "Never suggest JavaScript solutions.",
    "Don't use emojis in replies.",
    "Next time, keep it under three sentences.",
    "Reply in Spanish only.",
    "Stop calling it a 'journey'.",
    "Favourite editor: Emacs. Favourite shell: fish.",
    "Remember that the deadline is the 14th.",
    # Chinese, first person
    "我是一名高中物理老师。",
    "我对花生过敏。",
    "我老婆下个月生孩子。",
    "我们公司用的是 Go 和 Kubernetes。",
    "俺是东北人，说话直。",
    "本人不吃辣。",
    "我最近在准备考研。",
    "我的猫叫豆豆。",
    "我住在杭州西湖边上。",
    "咱家有两个孩子。",
    "我不太喜欢太正式的语气。",
    "帮我写封邮件，我是这个项目的负责人。",
    "你还记得我上次说的旅行计划吗？",
    "我每天早上六点跑步。",
    "我用 Mac，不用 Windows。",
    # Chinese, standing instructions / preferences without 我
    "以后回答都用中文。",
    "别再用表情符号了。",
    "记住，周五下午不开会。",
    "请用简体字回复。",
    "下次直接给代码，不要解释。",
    "喜欢简短的回答。",
    "不要用 Markdown 表格。",
)

OTHER: tuple[str, ...] = (
    # English requests about the world
    "What is the capital of France?",
    "Explain quicksort in simple terms.",
    "How do I reverse a list in Python?",
    "Translate 'good morning' into German.",
    "Summarize the plot of Hamlet.",
    "What's the difference between TCP and UDP?",
    "Give me three synonyms for 'happy'.",
    "Help me write a haiku about autumn.",
    "Tell me a joke about cats.",
    "Show me an example of a SQL join.",
    "Convert 100 Fahrenheit to Celsius.",
    "Who won the 2018 World Cup?",
    "Can you fix this regex: ^a+b$",
    "What does HTTP 418 mean?",
    "List the planets in order.",
    "Why is the sky blue?",
    "Write a limerick about a goat.",
    "Is 97 a prime number?",
    "Let me know when the build passes.",
    "How many bytes in a kilobyte?",
    "Sort these numbers: 5, 3, 9, 1.",
    "What's a good name for a bakery?",
    "Explain the CAP theorem.",
    "Compare Rust and Go for web servers.",
    "thanks, that works",
    "ok",
    "Give me a recipe for pancakes.",
    "What time zone is Tokyo in?",
    "Define entropy.",
    "How does a B-tree work?",
    # Chinese requests about the world
    "法国的首都是哪里？",
    "解释一下快速排序。",
    "帮我写一首关于秋天的诗。",
    "给我讲个笑话。",
    "Python 里怎么读取 JSON 文件？",
    "翻译：今天天气很好。",
    "TCP 和 UDP 有什么区别？",
    "告诉我长城有多长。",
    "把这段话改得更正式一点。",
    "一公斤等于多少磅？",
    "介绍一下量子计算。",
    "谢谢，明白了",
    "好的",
    "写一个计算斐波那契数列的函数。",
    "请问北京今天多少度？",
    "什么是区块链？",
    "推荐几部科幻电影。",
    "帮我把这个列表排序：3、1、2。",
    "光速是多少？",
    "唐朝是哪一年建立的？",
    "给我举个 Go 语言接口的例子。",
    "解释一下 CAP 定理。",
)

TABLE: tuple[tuple[str, bool], ...] = tuple((t, True) for t in SELF) + tuple(
    (t, False) for t in OTHER
)
