#!/usr/bin/env bash
# The sandbox's Elastic Load Balancing v2, ACM, CloudWatch Logs and CloudWatch dashboards
# must satisfy the AWS CLI: botocore signs, parses and checks every answer. The wildcard
# certificate seeded with --certificate is listed and described; a load balancer in two
# subnets of a VPC made with `aws ec2` is created, described, waited on until active, given
# a target group and an HTTPS listener with that certificate, and deleted; a log group gets
# a retention; a dashboard is put, read, listed and deleted.
source "$(dirname "$0")/lib.sh"

if ! command -v aws >/dev/null 2>&1; then
  echo "**********************************************************************"
  echo "*** SKIPPING the AWS CLI ELBv2/ACM sandbox test: no 'aws' on PATH."
  echo "*** Install it (apt-get install awscli) to run it."
  echo "**********************************************************************"
  exit 77
fi

serve_sandbox --memory --load-balancer-delay-ms 300 --certificate '*.example.com' || exit 1

aws_cli_on_sandbox

# ACM: the wildcard certificate the account holds before the deployment (--certificate).
if run "acm list-certificates" 0 awscli acm list-certificates --certificate-statuses ISSUED; then
  expect "seeded certificate listed" "$(field "['CertificateSummaryList'][0]['DomainName']" <<<"$out")" "*.example.com"
  cert=$(field "['CertificateSummaryList'][0]['CertificateArn']" <<<"$out")
  run "acm describe-certificate" 0 awscli acm describe-certificate --certificate-arn "$cert" &&
    expect "seeded certificate issued" "$(field "['Certificate']['Status']" <<<"$out")" "ISSUED"
fi
if run "acm request-certificate" 0 awscli acm request-certificate --domain-name api.example.com --validation-method DNS; then
  requested=$(field "['CertificateArn']" <<<"$out")
  run "acm describe requested" 0 awscli acm describe-certificate --certificate-arn "$requested" &&
    expect "requested certificate pending" "$(field "['Certificate']['Status']" <<<"$out")" "PENDING_VALIDATION"
  run "acm delete-certificate" 0 awscli acm delete-certificate --certificate-arn "$requested" && pass "certificate deleted"
fi

# ELBv2: an internet-facing application load balancer in two zones, as a load-balancer
# controller makes one for an Ingress.
if run "ec2 create-vpc" 0 awscli ec2 create-vpc --cidr-block 10.30.0.0/16; then
  vpc=$(field "['Vpc']['VpcId']" <<<"$out")
  run "ec2 create-subnet a" 0 awscli ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.30.1.0/24 \
    --availability-zone us-west-2a && subnet_a=$(field "['Subnet']['SubnetId']" <<<"$out")
  run "ec2 create-subnet b" 0 awscli ec2 create-subnet --vpc-id "$vpc" --cidr-block 10.30.2.0/24 \
    --availability-zone us-west-2b && subnet_b=$(field "['Subnet']['SubnetId']" <<<"$out")
  refused "an ALB in one zone is refused" awscli elbv2 create-load-balancer --name one-zone --subnets "$subnet_a"
  expect "one zone: ValidationError" "$err" "ValidationError"
  if run "elbv2 create-load-balancer" 0 awscli elbv2 create-load-balancer --name k8s-web \
    --subnets "$subnet_a" "$subnet_b" --scheme internet-facing --type application \
    --tags Key=elbv2.k8s.aws/cluster,Value=demo; then
    lb=$(field "['LoadBalancers'][0]['LoadBalancerArn']" <<<"$out")
    expect "lb arn" "$lb" "arn:aws:elasticloadbalancing:us-west-2:111122223333:loadbalancer/app/k8s-web/"
    expect "lb provisioning" "$(field "['LoadBalancers'][0]['State']['Code']" <<<"$out")" "provisioning"
    expect "lb dns name" "$(field "['LoadBalancers'][0]['DNSName']" <<<"$out")" ".us-west-2.elb.amazonaws.com"
    expect "lb hosted zone" "$(field "['LoadBalancers'][0]['CanonicalHostedZoneId']" <<<"$out")" "Z1H1FL5HABSF5"
    run "elbv2 describe-load-balancers" 0 awscli elbv2 describe-load-balancers --names k8s-web &&
      expect "describe by name" "$(field "['LoadBalancers'][0]['LoadBalancerArn']" <<<"$out")" "$lb"
    run "elbv2 describe-tags" 0 awscli elbv2 describe-tags --resource-arns "$lb" &&
      expect "lb tags" "$(field "['TagDescriptions'][0]['Tags'][0]['Value']" <<<"$out")" "demo"
    run "elbv2 wait load-balancer-available" 0 awscli elbv2 wait load-balancer-available --load-balancer-arns "$lb" &&
      pass "load balancer available"
    run "elbv2 describe-load-balancers active" 0 awscli elbv2 describe-load-balancers --load-balancer-arns "$lb" &&
      expect "lb active" "$(field "['LoadBalancers'][0]['State']['Code']" <<<"$out")" "active"
    # A target group and an HTTPS listener with the seeded certificate, as the controller adds them.
    if run "elbv2 create-target-group" 0 awscli elbv2 create-target-group --name k8s-web-tg --protocol HTTP --port 80 \
      --vpc-id "$vpc" --target-type ip; then
      tg=$(field "['TargetGroups'][0]['TargetGroupArn']" <<<"$out")
      expect "target group arn" "$tg" ":targetgroup/k8s-web-tg/"
      if run "elbv2 create-listener" 0 awscli elbv2 create-listener --load-balancer-arn "$lb" --protocol HTTPS --port 443 \
        --certificates CertificateArn="$cert" --default-actions Type=forward,TargetGroupArn="$tg"; then
        listener=$(field "['Listeners'][0]['ListenerArn']" <<<"$out")
        refused "an HTTPS listener without a certificate is refused" awscli elbv2 create-listener --load-balancer-arn "$lb" \
          --protocol HTTPS --port 8443 --default-actions Type=forward,TargetGroupArn="$tg"
        run "elbv2 describe-listeners" 0 awscli elbv2 describe-listeners --load-balancer-arn "$lb" &&
          expect "listener certificate" "$(field "['Listeners'][0]['Certificates'][0]['CertificateArn']" <<<"$out")" "$cert"
        run "elbv2 describe-target-groups" 0 awscli elbv2 describe-target-groups --load-balancer-arn "$lb" &&
          expect "target group in use by the lb" "$(field "['TargetGroups'][0]['LoadBalancerArns'][0]" <<<"$out")" "$lb"
        refused "a target group in use is not deleted" awscli elbv2 delete-target-group --target-group-arn "$tg"
        expect "in use: ResourceInUse" "$err" "ResourceInUse"
        run "elbv2 delete-listener" 0 awscli elbv2 delete-listener --listener-arn "$listener" && pass "listener deleted"
      fi
      run "elbv2 delete-target-group" 0 awscli elbv2 delete-target-group --target-group-arn "$tg" && pass "target group deleted"
    fi
    run "elbv2 delete-load-balancer" 0 awscli elbv2 delete-load-balancer --load-balancer-arn "$lb" &&
      pass "load balancer deleted"
    refused "deleted load balancer is not found" awscli elbv2 describe-load-balancers --load-balancer-arns "$lb"
    expect "gone: LoadBalancerNotFound" "$err" "LoadBalancerNotFound"
  fi
fi

# CloudWatch Logs (awsJson 1.1): a log group and its retention.
if run "logs create-log-group" 0 awscli logs create-log-group --log-group-name /aws/eks/demo/cluster --tags team=ml; then
  refused "a second group of the name is refused" awscli logs create-log-group --log-group-name /aws/eks/demo/cluster
  expect "duplicate: ResourceAlreadyExistsException" "$err" "ResourceAlreadyExistsException"
  run "logs put-retention-policy" 0 awscli logs put-retention-policy --log-group-name /aws/eks/demo/cluster \
    --retention-in-days 7 && pass "retention set"
  run "logs describe-log-groups" 0 awscli logs describe-log-groups --log-group-name-prefix /aws/eks/demo &&
    expect "group retention" "$(field "['logGroups'][0]['retentionInDays']" <<<"$out")" "7"
  expect "group arn" "$(field "['logGroups'][0]['arn']" <<<"$out")" "arn:aws:logs:us-west-2:111122223333:log-group:/aws/eks/demo/cluster:*"
  run "logs delete-log-group" 0 awscli logs delete-log-group --log-group-name /aws/eks/demo/cluster && pass "group deleted"
fi

# CloudWatch dashboards (awsJson 1.0, the protocol botocore picks for CloudWatch).
body='{"widgets":[{"type":"text","x":0,"y":0,"width":6,"height":3,"properties":{"markdown":"hi"}}]}'
if run "cloudwatch put-dashboard" 0 awscli cloudwatch put-dashboard --dashboard-name ops --dashboard-body "$body"; then
  run "cloudwatch get-dashboard" 0 awscli cloudwatch get-dashboard --dashboard-name ops &&
    expect "dashboard body" "$(field "['DashboardBody']" <<<"$out")" '"markdown":"hi"'
  run "cloudwatch list-dashboards" 0 awscli cloudwatch list-dashboards &&
    expect "dashboard listed" "$(field "['DashboardEntries'][0]['DashboardName']" <<<"$out")" "ops"
  refused "a body without a widgets list is refused" awscli cloudwatch put-dashboard --dashboard-name bad \
    --dashboard-body '{"widgets":3}'
  expect "bad body: InvalidParameterInput" "$err" "InvalidParameterInput"
  run "cloudwatch delete-dashboards" 0 awscli cloudwatch delete-dashboards --dashboard-names ops && pass "dashboard deleted"
  refused "deleted dashboard is not found" awscli cloudwatch get-dashboard --dashboard-name ops
  expect "gone: ResourceNotFound" "$err" "ResourceNotFound"
fi

finish
