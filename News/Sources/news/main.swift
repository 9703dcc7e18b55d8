import NewsCLI

NewsCommand.start()
