from cardgen.interrupt import main

main()
