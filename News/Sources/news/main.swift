import NewsCLI

NewsCommand.main()
