from cardgen.cli import main

main()
