"""The Discord edge: the only code that imports discord.

The client and its start-up (`app`, `startup`), slash commands (`commands/`), buttons and
menus (`components`), what a message shows (`present`, `endchart`, `limits`), answering an
interaction (`flow`, `answer`, `errors`) and posting boards, pings and notices (`announce`,
`notify`, `mygames`). It calls the services; nothing below it calls back up.
"""
