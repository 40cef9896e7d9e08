--- TestOverQuotaNamesTheRuleEverywhere
scenario { id = "quota", title = "Q", briefing = "B", start = "09:00", duration = 30, constants = { max_instances = 12 } }
grade { { metric = "cost", at_most = "reference * 1.2" } }
