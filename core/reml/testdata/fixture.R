# Fixture for core/reml: 12 groups, one feature, random intercept and slope (uncorrelated).
suppressMessages(library(lme4))
set.seed(20261126)
g <- rep(sprintf("g%02d", 1:12), times=sample(4:15, 12, replace=TRUE))
n <- length(g); x <- round(rnorm(n, 2, 1.5), 3)
gi <- as.integer(factor(g))
c0 <- rnorm(12, 0, 1.2); c1 <- rnorm(12, 0, 0.6)
y <- round(3 + 0.8*x + c0[gi] + c1[gi]*x + rnorm(n, 0, 1), 3)
d <- data.frame(task=g, x=x, y=y)
write.csv(d, "twolevel.csv", row.names=FALSE, quote=FALSE)
m <- lmer(y ~ x + (1|task) + (0+x|task), data=d, REML=TRUE, control=lmerControl(optimizer="bobyqa", optCtrl=list(rhobeg=1e-3, rhoend=1e-9)))
vc <- as.data.frame(VarCorr(m))
s2 <- sigma(m)^2; v0 <- vc$vcov[which(vc$var1=="(Intercept)")]; v1 <- vc$vcov[which(vc$var1=="x")]
cat(sprintf("sigma2 %.10g\nvar_intercept %.10g\nvar_slope %.10g\nreml_deviance %.10g\n", s2, v0, v1, REMLcrit(m)))
