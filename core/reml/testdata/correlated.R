# Fixture for core/reml's OriginOf: 30 groups, one feature centred as written,
# intercepts and slopes correlated (they are independent at x = -2.5).
suppressMessages(library(lme4))
set.seed(20261127)
g <- rep(sprintf("g%02d", 1:30), times=sample(6:12, 30, replace=TRUE))
n <- length(g); x <- round(runif(n, -1, 1), 3)
gi <- as.integer(factor(g))
a <- rnorm(30, 0, 1.5); s <- rnorm(30, 0, 0.8)
# level a at x = -2.5: y = 10 + 2x + a + s (x + 2.5)
y <- round(10 + 2*x + a[gi] + s[gi]*(x + 2.5) + rnorm(n, 0, 0.5), 3)
d <- data.frame(task=g, x=x, y=y)
write.csv(d, "correlated.csv", row.names=FALSE, quote=FALSE)
m <- lmer(y ~ x + (1 + x|task), data=d, REML=TRUE, control=lmerControl(optimizer="bobyqa", optCtrl=list(rhobeg=1e-3, rhoend=1e-9)))
vc <- VarCorr(m)$task
cat(sprintf("x0 %.10g\nreml_deviance %.10g\n", -vc[1,2]/vc[2,2], REMLcrit(m)), file="lme4-correlated.txt")
